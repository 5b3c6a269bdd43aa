import CNATS

extension NATSConnection {
    /// Creates the stream, or changes an existing one of that name to `configuration`, and returns its info.
    ///
    /// Throws `invalidArgument` for a name libnats refuses (with a `.`), `failed` with JetStream's code for what the
    /// server refuses (10074 replicas > 1 without a cluster, 10065 subjects overlap another stream's, 10052 an
    /// invalid configuration…), `unavailable` while JetStream has no leader.
    @discardableResult
    public func createOrUpdateStream(_ configuration: StreamConfiguration) async throws -> StreamInfo {
        try await blocking { connection in
            try configuration.withCConfiguration { config in
                var info: UnsafeMutablePointer<jsStreamInfo>?
                defer { jsStreamInfo_Destroy(info) }
                var code = jsErrCode(0)
                var status = js_AddStream(&info, connection.jetStream, &config, nil, &code)
                var call = "js_AddStream"
                if status != NATS_OK && code == JSStreamNameExistErr {
                    // Exists with another configuration: change it (js_AddStream succeeds when it is the same).
                    jsStreamInfo_Destroy(info)
                    info = nil
                    status = js_UpdateStream(&info, connection.jetStream, &config, nil, &code)
                    call = "js_UpdateStream"
                }
                try connection.check(
                    status, "creating or updating the stream \(configuration.name)", call: call, jetStreamCode: code)
                return StreamInfo(info!.pointee)
            }
        }
    }

    /// The stream's configuration and state; throws `notFound` when there is no such stream.
    public func streamInfo(_ name: String) async throws -> StreamInfo {
        try await blocking { connection in
            var info: UnsafeMutablePointer<jsStreamInfo>?
            defer { jsStreamInfo_Destroy(info) }
            var code = jsErrCode(0)
            let status = js_GetStreamInfo(&info, connection.jetStream, name, nil, &code)
            try connection.check(
                status, "reading the info of the stream \(name)", call: "js_GetStreamInfo", jetStreamCode: code)
            return StreamInfo(info!.pointee)
        }
    }

    /// Deletes the stream and all its messages; throws `notFound` when there is no such stream.
    public func deleteStream(_ name: String) async throws {
        try await blocking { connection in
            var code = jsErrCode(0)
            let status = js_DeleteStream(connection.jetStream, name, nil, &code)
            try connection.check(status, "deleting the stream \(name)", call: "js_DeleteStream", jetStreamCode: code)
        }
    }
}
