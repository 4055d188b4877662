print("auditor: not yet wired")
