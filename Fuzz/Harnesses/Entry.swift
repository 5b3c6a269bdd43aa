import Foundation

#if LIBFUZZER
    /// The harness libFuzzer drives, chosen once by `MUSTER_FUZZ_TARGET` (libFuzzer owns the command line).
    private let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["MUSTER_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget.named(name) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            fatalError("MUSTER_FUZZ_TARGET must name a harness (\(names)), not \"\(name)\"")
        }
        return target
    }()

    /// libFuzzer's entry point: one input to the selected harness.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selected.run(bytes)
        return 0
    }

    /// libFuzzer's driver (its command line, its loop), which its own `main` calls.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The executable's entry point. SwiftPM links an executable's `main` to `<module>_main`, so libFuzzer's own
    /// `main` is not used; this one hands the command line to libFuzzer's driver.
    @_cdecl("muster_fuzz_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#else
    /// Without libFuzzer (a normal build): replays corpus files through a harness, e.g.
    /// `muster-fuzz json Fuzz/Corpus/json`, so the harnesses build and their corpora are checked with every build.
    @main
    struct Replay {
        static func main() throws {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget.named(name) else {
                let names = FuzzTarget.all.map(\.name).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: muster-fuzz \(names) FILE|DIRECTORY…\n".utf8))
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    FileHandle.standardError.write(Data("muster-fuzz: \(path): no such file or directory\n".utf8))
                    exit(2)
                }
                let files =
                    isDirectory.boolValue
                    ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }
                    : [path]
                for file in files {
                    target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                    count += 1
                }
            }
            print("\(target.name): \(count) inputs replayed, every promise kept")
        }
    }
#endif
