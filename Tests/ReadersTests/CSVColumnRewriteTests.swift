import Auditor
import Foundation
import TestSupport
@_spi(Testing) @testable import AuditorReaders
import Testing

/// `decimalComma:` columns (``CSVDecimalComma``): numbers that Python writes the German way are
/// read back as the same decimal, exactly; text that is not such a number is left as it is.
/// `dateFormat:` columns (``CSVDateFormat``): dates that Python's `strftime` writes in another
/// order are read as Python's `isoformat`, and a text `strptime` refuses is no date.
@Suite struct CSVColumnRewriteTests {
    /// Prints JSON cases: numbers that Python's `decimal` formats with `,` grouping and then
    /// writes with the separators swapped (`1.234.567,891`), with their exact value; and
    /// mutations of them (a decimal point, letters, exponents, misplaced dots, signs) as text.
    static let generator = #"""
        import decimal, json, random, sys
        rnd = random.Random(int(sys.argv[1]))
        cases = []
        for _ in range(4000):
            digits = rnd.randint(1, 22)
            scale = rnd.choice([0, 0, 1, 2, 3, rnd.randint(1, 18)])
            v = decimal.Decimal(rnd.randint(0, 10 ** digits)).scaleb(-scale)
            if rnd.random() < 0.3: v = -v
            grouped = rnd.random() < 0.5
            text = f"{v:,f}" if grouped else f"{v:f}"
            if sys.argv[2] != "us": text = text.translate(str.maketrans(",.", ".,"))
            if rnd.random() < 0.1 and not text.startswith("-"): text = "+" + text
            cases.append({"text": text, "value": f"{v:f}"})
        for _ in range(2000):
            t = list(cases[rnd.randrange(len(cases))]["text"])
            for _ in range(rnd.randint(1, 3)):
                op = rnd.random()
                k = rnd.randrange(len(t) + 1)
                if op < 0.4: t.insert(k, rnd.choice(".,e-+x 0"))
                elif op < 0.7 and t: t.pop(min(k, len(t) - 1))
                elif t: t[min(k, len(t) - 1)] = rnd.choice(".,5")
            cases.append({"text": "".join(t)})
        print(json.dumps(cases))
        """#

    /// What Python's `re` says each text is: a number written with the style's grouping mark
    /// between threes and its decimal mark (its value by `decimal`); with a decimal comma
    /// (argv "de"), also one written with a decimal point; else neither.
    static let oracle = #"""
        import decimal, json, re, sys
        us = sys.argv[1] == "us"
        g, d = (",", ".") if us else (".", ",")
        number = re.compile(r"([+-]?)(\d+|\d{1,3}(?:" + re.escape(g) + r"\d{3})+)(?:" + re.escape(d) + r"(\d+))?")
        out = []
        for case in json.load(sys.stdin):
            t = case["text"]
            m = number.fullmatch(t)
            if m and ("." in t or "," in t):
                sign, integer, fraction = m.group(1), m.group(2).replace(g, ""), m.group(3)
                value = decimal.Decimal(integer + ("." + fraction if fraction else "")).copy_sign(decimal.Decimal(sign + "1"))
                out.append({"kind": "rewritten", "value": format(value, "f")})
            elif not us and not m and "." in t and re.fullmatch(r"[0-9+\-.,eE]*", t) and re.search(r"\d", t):
                out.append({"kind": "point"})
            else:
                out.append({"kind": "unchanged"})
        print(json.dumps(out))
        """#

    @Test("The profile's sniff for thousandsComma: two commas, or a point after one; not 1,234 alone")
    func thousandsSniff() throws {
        let (chunk, names) = try Self.firstChunk("a;b;c;d\n\"1,234.5\";1,234;1,234,567;1.5\n2;2,345;7;2,5\n")
        #expect(CSVDecimalComma.columns(of: chunk, names: names, style: .thousandsComma) == ["a", "c"])
    }

    /// The first records of `text`, a `;`-delimited CSV file, and its header.
    static func firstChunk(_ text: String) throws -> (RecordChunk, [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-rewrite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let reader = try CSVReader(path: file, options: CSVOptions(delimiter: UInt8(ascii: ";")))
        return (try #require(try reader.nextChunk(maxRecords: 1000)), reader.schema.fields)
    }

    /// ``generator``'s cases for `style` and what ``oracle`` says of each.
    static func numberCases(_ style: CSVDecimalComma.Style, seed: Int) throws -> (cases: [[String: String]], expected: [[String: String]]) {
        let python = try #require(CSVGenerated.python, "needs python3")
        let dialect = style == .decimalComma ? "de" : "us"
        let made = try ChildProcess.run([python, "-c", generator, String(seed), dialect])
        try #require(made.status == 0, "\(made)")
        let judged = try ChildProcess.run([python, "-c", oracle, dialect], input: made.stdout)
        try #require(judged.status == 0, "\(judged)")
        return (try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: String]]),
                try #require(try JSONSerialization.jsonObject(with: judged.stdout) as? [[String: String]]))
    }

    @Test("Python's decimals, written 1.234,5 (decimalComma) or 1,234.5 (thousandsComma), read back exactly; mutations match Python's re",
          arguments: [CSVDecimalComma.Style.decimalComma, .thousandsComma])
    func differential(style: CSVDecimalComma.Style) throws {
        let (cases, expected) = try Self.numberCases(style, seed: style == .decimalComma ? 5 : 6)
        #expect(cases.count == 6000 && expected.count == cases.count)
        var rewritten = 0, points = 0, unchanged = 0
        for (c, want) in zip(cases, expected) {
            let text = try #require(c["text"])
            var bytes = Array(text.utf8)
            let outcome: CSVDecimalComma.Outcome = bytes.isEmpty ? .unchanged : bytes.withUnsafeMutableBufferPointer {
                CSVDecimalComma.rewrite($0.baseAddress!, length: $0.count, style: style)
            }
            switch (outcome, want["kind"]) {
            case (.rewritten(let length), "rewritten"?):
                rewritten += 1
                let read = String(decoding: bytes.prefix(length), as: UTF8.self)
                // The text the auditor reads is the value Python formatted, digit for digit (a
                // `+` is kept, as the auditor reads `+12.5` in any file: not a decimal).
                let exact = ExactDecimal(read.hasPrefix("+") ? String(read.dropFirst()) : read)
                #expect(exact != nil && exact == want["value"].flatMap(ExactDecimal.init), "'\(text)' → '\(read)', want \(want)")
                if let value = c["value"] { #expect(exact == ExactDecimal(value), "'\(text)' → '\(read)'") }
            case (.decimalPoint, "point"?):
                points += 1
            case (.unchanged, "unchanged"?):
                unchanged += 1
                #expect(String(decoding: bytes, as: UTF8.self) == text, "'\(text)' was changed")
            default:
                Issue.record("'\(text)': \(outcome), Python: \(want)")
            }
        }
        #expect(rewritten > 2000 && unchanged > 500 && (style == .thousandsComma || points > 100),
                "\(rewritten) rewritten, \(points) with a point, \(unchanged) left")
    }

    @Test("The profile's sniff: numbers with a decimal comma; not 1,234 alone, not numbers with a decimal point")
    func sniff() throws {
        func columns(_ text: String) throws -> [String] {
            let (chunk, names) = try Self.firstChunk(text)
            return CSVDecimalComma.columns(of: chunk, names: names)
        }
        #expect(try columns("a;b;c;d;e\n12,50;1,234;x;1.234,0;1.5\n-3;2,345;1,5;7;2,5\n;3,456;y;8;3\n") == ["a", "d"])
        // One value in ten may be other text (a type rule then reports it).
        let rows = (0 ..< 20).map { $0 == 0 ? "n/a" : "\($0),25" }.joined(separator: "\n")
        #expect(try columns("a\n" + rows + "\n") == ["a"])
        #expect(try columns("a\nn/a\nn/a\n1,25\n") == [])
        #expect(try columns("a\n1.5\n2,5\n") == [])
        #expect(try columns("a\n" + (0 ..< 20).map { $0 == 0 ? "1.5" : "\($0),5" }.joined(separator: "\n") + "\n") == ["a"])
    }

    /// Prints JSON cases: per format, dates that `strftime` writes (and texts it would not:
    /// day 31 of short months, 29 February of common years, wrong separators, short years,
    /// three-digit days), with `strptime`'s reading as an ISO date, or null where it refuses the
    /// text. `D` and `M` formats get days and months with and without a leading zero; a `DD` or
    /// `MM` format refuses one digit, which `strptime` would take.
    static let dates = #"""
        import datetime, json, random, sys
        rnd = random.Random(int(sys.argv[1]))
        formats = {"DD.MM.YYYY": "%d.%m.%Y", "DD/MM/YYYY": "%d/%m/%Y", "MM/DD/YYYY": "%m/%d/%Y", "DD-MM-YYYY": "%d-%m-%Y",
                   "MM-DD-YYYY": "%m-%d-%Y", "YYYY/MM/DD": "%Y/%m/%d", "YYYY.MM.DD": "%Y.%m.%d",
                   "D.M.YYYY": "%d.%m.%Y", "M/D/YYYY": "%m/%d/%Y", "D/M/YYYY": "%d/%m/%Y", "YYYY-M-D": "%Y-%m-%d",
                   "DD.M.YYYY": "%d.%m.%Y", "M-DD-YYYY": "%m-%d-%Y"}
        cases = []
        for name, fmt in formats.items():
            short = name.replace("DD", "").count("D") + name.replace("MM", "").count("M")
            for _ in range(400):
                d = datetime.date(rnd.randint(1000, 9999), rnd.randint(1, 12), 1) + datetime.timedelta(days=rnd.randint(0, 30))
                day = f"{d.day:02d}" if "DD" in name or rnd.random() < 0.5 else str(d.day)
                month = f"{d.month:02d}" if "MM" in name or rnd.random() < 0.5 else str(d.month)
                r = rnd.random()
                if r < 0.2:                                      # a day or month that may not exist, or has too many digits
                    day = rnd.choice([f"{rnd.randint(0, 39):02d}", str(rnd.randint(0, 9)), f"{rnd.randint(0, 99):03d}"])
                    month = rnd.choice([f"{rnd.randint(0, 19):02d}", str(rnd.randint(0, 9))])
                text = fmt.replace("%d", day).replace("%m", month).replace("%Y", f"{d.year:04d}")
                if 0.2 <= r < 0.3:
                    text = text.replace(fmt[2], rnd.choice(".-/ "), 1)
                elif 0.3 <= r < 0.35:
                    text = text[:-1]
                # strptime's %d and %m take one digit too; a DD or MM format does not.
                pieces, tokens = text.split(fmt[2]), name.split(next(c for c in name if c in "./-"))
                widths_ok = len(pieces) == 3 and all(len(p) == 2 for p, t in zip(pieces, tokens) if t in ("DD", "MM"))
                try: iso = datetime.datetime.strptime(text, fmt).date().isoformat() if widths_ok and " " not in text else None
                except ValueError: iso = None
                cases.append({"format": name, "text": text, "iso": iso})
        print(json.dumps(cases))
        """#

    @Test("Dates that Python writes in each order read as its isoformat; what strptime refuses is no date")
    func datesDifferential() throws {
        let python = try #require(CSVGenerated.python, "needs python3")
        let made = try ChildProcess.run([python, "-c", Self.dates, "9"])
        try #require(made.status == 0, "\(made)")
        let cases = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        var valid = 0, refused = 0, grown = 0
        for c in cases {
            let name = try #require(c["format"] as? String)
            let format = try #require(CSVDateFormat(name))
            let text = try #require(c["text"] as? String)
            let bytes = Array(text.utf8)
            var out = [UInt8](repeating: 0, count: 10)
            let rewritten = bytes.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { format.read(p.baseAddress!, length: p.count, into: $0.baseAddress!) }
            } == 10
            // What `type: date` then reads: the rewritten text, else the text as it is.
            let read = (rewritten ? out : bytes).withUnsafeBufferPointer { ByteParsers.date($0) }.map { CalendarMath.isoDate(days: Int($0)) }
            if let iso = c["iso"] as? String {
                valid += 1
                if bytes.count < 10 { grown += 1 }
                #expect(rewritten && read == iso, "\(format.text) '\(text)' → '\(String(decoding: out, as: UTF8.self))', Python: \(iso)")
            } else {
                refused += 1
                // Left as written (31.02.2024 too), for `type: date` to show as the file has it.
                #expect(!rewritten && read == nil, "\(format.text) '\(text)' read as \(read ?? "")")
            }
        }
        #expect(valid > 3000 && refused > 600 && grown > 500, "\(valid) dates (\(grown) shorter than 10 bytes), \(refused) refused")
        // The same ten bytes read in place.
        var inPlace = Array("31.12.2024".utf8)
        let fits = inPlace.withUnsafeMutableBufferPointer { try! #require(CSVDateFormat("DD.MM.YYYY")).read($0.baseAddress!, length: 10, into: $0.baseAddress!) }
        #expect(fits == 10 && String(decoding: inPlace, as: UTF8.self) == "2024-12-31")
        for bad in ["DD.MM.YY", "DD.MM-YYYY", "YYYY.DD.DD", "D.D.YYYY", "DDD.MM.YYYY", "Y.M.D", "M/D"] { #expect(CSVDateFormat(bad) == nil, "\(bad)") }
    }

    @Test("The profile's sniff: the one order in which the values are dates; none where two orders fit")
    func dateSniff() throws {
        func formats(_ text: String) throws -> [String: String] {
            let (chunk, names) = try Self.firstChunk(text)
            return CSVDateFormat.columns(of: chunk, names: names)
        }
        #expect(try formats("a;b;c;d\n31.12.2024;12/31/2024;01/02/2024;2024-12-31\n01.01.2000;01/13/2000;03/04/2024;2000-01-01\n")
                == ["a": "DD.MM.YYYY", "b": "MM/DD/YYYY"])
        #expect(try formats("a\n31.02.2024\n01.01.2000\n") == [:])
        // One or two digits: the order the values allow, two-digit only where every value has two.
        #expect(try formats("a;b;c\n1/2/2024;12/25/2024;5.1.2024\n13/10/2024;1/31/2000;31.12.2024\n")
                == ["a": "D/M/YYYY", "b": "M/D/YYYY", "c": "D.M.YYYY"])
        #expect(try formats("a\n1/2/2024\n3/4/2024\n") == [:])
        // Date-times that write no offset: read as UTC, the profile says so.
        #expect(try formats("a;b;c;d;e\n2024-12-31 14:05:00.5;31.12.2024 14:05;1/2/2024 9:05;2024-12-31T14:05:00Z;2024-12-31T14:05:00\n"
                            + "2000-01-01 00:00:00;01.01.2000 00:00;12/25/2024 13:00;2000-01-01T00:00:00Z;2000-01-01T00:00:00\n")
                == ["a": "YYYY-MM-DD hh:mm:ss UTC", "b": "DD.MM.YYYY hh:mm UTC", "c": "M/D/YYYY h:mm UTC", "e": "YYYY-MM-DDThh:mm:ss UTC"])
        #expect(try formats("a\n01/02/2024 10:00\n03/04/2024 11:00\n") == [:])
        // 12-hour clocks, as .NET and US reports write them.
        #expect(try formats("a;b\n1/28/2008 3:45:00 PM;12/31/2024 11:05 am\n12/1/2024 12:00:00 AM;01/13/2000 12:30 pm\n")
                == ["a": "M/D/YYYY h:mm:ss AM/PM UTC", "b": "MM/DD/YYYY hh:mm AM/PM UTC"])
    }

    /// Python shared by ``dateTimes`` and ``twelveHours``: the ISO text, with `offset`, of a
    /// match whose groups name a date-time's parts (`hour` gives its hour), or None where Python's
    /// `datetime` refuses it (or there is no match).
    static let isoOf = #"""
        def iso_of(m, hour, offset):
            if not m:
                return None
            g = m.groupdict()
            try:
                h = hour(g)
                datetime.datetime(int(g["Y"]), int(g["m"]), int(g["d"]), h, int(g["M"]), int(g.get("S") or 0))
            except ValueError:
                return None
            return (f"{g['Y']}-{int(g['m']):02d}-{int(g['d']):02d}T{h:02d}:{g['M']}:{g.get('S') or '00'}"
                    + (f".{g['f']}" if g.get("f") else "") + offset)
        """#

    /// Prints JSON cases: per date-time format, values that Python writes (hours with and
    /// without a leading zero, fractions of 1 to 9 digits where seconds are written) and
    /// mutations (hour 24, minute or second 60, a missing or extra part, a fraction of ten
    /// digits, the other separator, a day no calendar has), each with the ISO text that Python's
    /// `re` and `datetime` make of it and the format's offset, or null where they refuse it.
    static let dateTimes = #"""
        import datetime, json, random, re, sys
        \#(Self.isoOf)
        rnd = random.Random(int(sys.argv[1]))
        formats = ["DD.MM.YYYY hh:mm UTC", "M/D/YYYY h:mm +01:00", "YYYY-MM-DD hh:mm:ss UTC", "YYYY-MM-DDThh:mm:ss -05:30",
                   "DD/MM/YYYY h:mm:ss Z", "MM-DD-YYYY hh:mm:ss +14:00"]
        tokens = {"YYYY": r"(?P<Y>\d{4})", "MM": r"(?P<m>\d{2})", "M": r"(?P<m>\d{1,2})", "DD": r"(?P<d>\d{2})", "D": r"(?P<d>\d{1,2})",
                  "hh": r"(?P<H>\d{2})", "h": r"(?P<H>\d{1,2})", "mm": r"(?P<M>\d{2})", "ss": r"(?P<S>\d{2})(?:\.(?P<f>\d{1,9}))?"}
        cases = []
        for name in formats:
            body, zone = name.rsplit(" ", 1)
            offset = "Z" if zone in ("UTC", "Z") else zone
            pattern = re.compile(re.sub(r"YYYY|MM|M|DD|D|hh|h|mm|ss", lambda m: tokens[m.group(0)], re.escape(body).replace("\\ ", " ")))
            for _ in range(500):
                t = datetime.datetime(rnd.randint(1000, 9999), rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23), rnd.randint(0, 59), rnd.randint(0, 59))
                parts = {"YYYY": f"{t.year:04d}", "MM": f"{t.month:02d}", "DD": f"{t.day:02d}", "hh": f"{t.hour:02d}", "mm": f"{t.minute:02d}",
                         "M": str(t.month) if rnd.random() < 0.5 else f"{t.month:02d}", "D": str(t.day) if rnd.random() < 0.5 else f"{t.day:02d}",
                         "h": str(t.hour) if rnd.random() < 0.5 else f"{t.hour:02d}", "ss": f"{t.second:02d}"}
                if "ss" in body and rnd.random() < 0.4: parts["ss"] += "." + "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 9)))
                r = rnd.random()
                if r < 0.06: parts["hh"] = parts["h"] = rnd.choice(["24", "25", "99"])
                elif r < 0.12: parts["mm"] = "60"
                elif r < 0.18 and "ss" in body: parts["ss"] = "60"
                elif r < 0.22: parts["DD"] = parts["D"] = "31"; parts["MM"] = parts["M"] = rnd.choice(["02", "04", "2"])
                text = re.sub(r"YYYY|MM|M|DD|D|hh|h|mm|ss", lambda m: parts[m.group(0)], body)
                if 0.22 <= r < 0.26: text = text.replace(" ", "T") if " " in text else text.replace("T", " ")
                elif 0.26 <= r < 0.29: text += rnd.choice([":00", " ", "Z", ".1234567890", "0"])
                elif 0.29 <= r < 0.32: text = text[:-1]
                elif 0.32 <= r < 0.34 and "hh" in body: text = re.sub(r"(?<=[ T])0(\d):", r"\1:", text, count=1)
                iso = iso_of(pattern.fullmatch(text), lambda g: int(g["H"]), offset)
                cases.append({"format": name, "text": text, "iso": iso})
        print(json.dumps(cases))
        """#

    /// Runs a generator of date-time cases (``dateTimes``, ``twelveHours``) with `seed`, reads
    /// each text in its format, and checks the reading against Python's: its ISO text, which
    /// the auditor then reads as an instant, or nothing where Python refuses the text.
    /// - Returns: The texts read, and those left as written.
    static func readDateTimes(_ script: String, seed: String) throws -> (read: [String], refused: Int) {
        let python = try #require(CSVGenerated.python, "needs python3")
        let made = try ChildProcess.run([python, "-c", script, seed])
        try #require(made.status == 0, "\(made)")
        let cases = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [[String: Any]])
        var valid = [String](), refused = 0
        for c in cases {
            let name = try #require(c["format"] as? String)
            let format = try #require(CSVDateFormat(name), "\(name)")
            let text = try #require(c["text"] as? String)
            var out = [UInt8](repeating: 0, count: format.maxOutput)
            let n = Array(text.utf8).withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { format.read(p.baseAddress!, length: p.count, into: $0.baseAddress!) }
            }
            let read = String(decoding: out.prefix(n), as: UTF8.self)
            if let iso = c["iso"] as? String {
                valid.append(text)
                #expect(read == iso && out.prefix(n).withUnsafeBufferPointer { ByteParsers.instant($0) } != nil,
                        "\(name) '\(text)' → '\(read)', Python: \(iso)")
            } else {
                refused += 1
                #expect(n == 0, "\(name) '\(text)' read as '\(read)'")
            }
        }
        return (valid, refused)
    }

    @Test("Date-times that Python writes in each format read as its ISO text with the format's offset; what it refuses is left as written")
    func dateTimesDifferential() throws {
        let (read, refused) = try Self.readDateTimes(Self.dateTimes, seed: "29")
        #expect(read.count > 1500 && refused > 500, "\(read.count) read, \(refused) refused")
        for bad in ["DD.MM.YYYY hh:mm", "DD.MM.YYYY hh UTC", "M/D/YYYY h:mm AM/PM", "M/D/YYYY h:mm AM UTC", "M/D/YYYY h:mm UTC AM/PM", "DD.MM.YYYY hh:mm:ss:ff UTC", "DD.MM.YYYY hh:mm +1:00", "DD.MM.YYYY hh:mm +24:00",
                    "DD.MM.YYYY  hh:mm UTC", "DD.MM.YYYY hh:mm CET", "DD.MM.YYYY H:mm UTC"] {
            #expect(CSVDateFormat(bad) == nil, "\(bad)")
        }
    }

    /// Prints JSON cases for 12-hour clocks (`AM/PM`): times that `strftime` writes with `%I`
    /// and `%p` (the hour with and without its leading zero where the format says `h`, `am`
    /// and `pm` in any case), and mutations (hour 0, 00 or 13, no `AM`/`PM`, `P.M.`, no space
    /// before it), each with the ISO text that Python's `re` and `strptime` make of it and the
    /// format's offset, or null where they refuse it.
    static let twelveHours = #"""
        import datetime, json, random, re, sys
        \#(Self.isoOf)
        rnd = random.Random(int(sys.argv[1]))
        formats = ["M/D/YYYY h:mm:ss AM/PM UTC", "MM/DD/YYYY hh:mm AM/PM -05:00", "DD.MM.YYYY h:mm AM/PM Z", "YYYY-MM-DD hh:mm:ss AM/PM +09:30"]
        tokens = {"YYYY": r"(?P<Y>\d{4})", "MM": r"(?P<m>\d{2})", "M": r"(?P<m>\d{1,2})", "DD": r"(?P<d>\d{2})", "D": r"(?P<d>\d{1,2})",
                  "hh": r"(?P<I>\d{2})", "h": r"(?P<I>\d{1,2})", "mm": r"(?P<M>\d{2})", "ss": r"(?P<S>\d{2})(?:\.(?P<f>\d{1,9}))?",
                  "AM/PM": r"(?P<p>\S+)"}
        cases = []
        for name in formats:
            body, zone = name.rsplit(" ", 1)
            offset = "Z" if zone in ("UTC", "Z") else zone
            pattern = re.compile(re.sub(r"AM/PM|YYYY|MM|M|DD|D|hh|h|mm|ss", lambda m: tokens[m.group(0)], re.escape(body).replace("\\ ", " ").replace("\\/", "/")))
            for _ in range(500):
                t = datetime.datetime(rnd.randint(1000, 9999), rnd.randint(1, 12), rnd.randint(1, 28), rnd.choice([0, 11, 12, 23, rnd.randint(0, 23)]),
                                      rnd.randint(0, 59), rnd.randint(0, 59))
                twelve = t.hour % 12 or 12
                parts = {"YYYY": f"{t.year:04d}", "MM": f"{t.month:02d}", "DD": f"{t.day:02d}", "hh": f"{twelve:02d}", "mm": f"{t.minute:02d}",
                         "M": str(t.month), "D": str(t.day), "h": str(twelve) if rnd.random() < 0.5 else f"{twelve:02d}",
                         "ss": f"{t.second:02d}", "AM/PM": rnd.choice(["AM", "am", "Am"] if t.hour < 12 else ["PM", "pm", "pM"])}
                if "ss" in body and rnd.random() < 0.3: parts["ss"] += "." + "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 9)))
                r = rnd.random()
                if r < 0.08: parts["hh"] = parts["h"] = rnd.choice(["0", "00", "13", "24"])
                elif r < 0.12: parts["AM/PM"] = rnd.choice(["P.M.", "XM", "A", "AMM", "p"])
                text = re.sub(r"AM/PM|YYYY|MM|M|DD|D|hh|h|mm|ss", lambda m: parts[m.group(0)], body)
                if 0.12 <= r < 0.16: text = text.rsplit(" ", 1)[0]
                elif 0.16 <= r < 0.19: text = text.replace(" " + parts["AM/PM"], parts["AM/PM"])
                iso = iso_of(pattern.fullmatch(text), lambda g: datetime.datetime.strptime(f"{g['I']} {g['p']}", "%I %p").hour, offset)
                cases.append({"format": name, "text": text, "iso": iso})
        print(json.dumps(cases))
        """#

    @Test("12-hour times (AM/PM) that Python writes read as strptime's %I and %p read them; what it refuses is left as written")
    func twelveHourDifferential() throws {
        let (read, refused) = try Self.readDateTimes(Self.twelveHours, seed: "31")
        let afternoon = read.count { $0.lowercased().hasSuffix("pm") }
        #expect(read.count > 1400 && refused > 200 && afternoon > 500, "\(read.count) read (\(afternoon) PM), \(refused) refused")
    }
}
