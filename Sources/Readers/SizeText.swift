/// A size limit as messages state it: `8 MiB` when it is whole mebibytes, else `1536 bytes`.
func sizeText(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
}
