/// The answer to every location fix is written without Foundation's encoder: it took 18 % of the request handlers'
/// CPU on the location route (bench http-locations). Members in sorted order; a nil optional left out.
extension LocationAnswer: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.writeObject { writer in
            writer.member("geotriggers", geotriggers) { $0.write($1) }
            writer.member("ignored", ignored)
            writer.member("outcomes", outcomes) { $0.write($1) }
            writer.member("transitions", transitions) { $0.write($1) }
        }
    }
}

extension LocationAnswer.Transition: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.writeObject { writer in
            writer.member("area", area)
            writer.member("trigger", trigger)
        }
    }
}

extension LocationAnswer.Outcome: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.writeObject { writer in
            writer.member("area", area)
            writer.member("fired", fired)
            writer.member("messageId", messageId)
            writer.member("reason", reason)
            writer.member("rule", rule)
        }
    }
}

extension LocationAnswer.GeotriggerOutcome: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.writeObject { writer in
            writer.member("actions", actions) { $0.write($1) }
            writer.member("fence", fence)
            writer.member("fired", fired)
            writer.member("geotrigger", geotrigger)
            writer.member("message", message)
            writer.member("messageId", messageId)
            writer.member("notificationType", notificationType)
            writer.member("reason", reason)
        }
    }
}
