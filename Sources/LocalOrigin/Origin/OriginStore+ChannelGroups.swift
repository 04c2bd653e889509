// Channel groups (docs/PROTOCOL.md §2.11): `/v1/channel-registration/sub-key/{sub}/[namespace/{ns}/]channel-group…`.
// A group made under a namespace is stored as `{ns}:{group}`, the name a client then subscribes with.

extension OriginStore {
    private static let registry = "channel-registry"

    private static func registryOK(_ payload: JSONValue? = nil) -> OriginReply {
        var members = [JSONMember(key: "status", value: .int(200))]
        if let payload {
            members.append(JSONMember(key: "payload", value: payload))
        } else {
            members.append(JSONMember(key: "message", value: .string("OK")))
        }
        members += [
            JSONMember(key: "service", value: .string(OriginStore.registry)),
            JSONMember(key: "error", value: .bool(false)),
        ]
        return OriginReply(status: 200, body: .object(members))
    }

    private static func registryError(_ message: String) -> OriginReply {
        OriginReply(
            status: 400,
            body: .object([
                "status": .int(400), "message": .string(message), "service": .string(OriginStore.registry),
                "error": .bool(true),
            ])
        )
    }

    /// Characters a group name cannot hold: the list separator, the namespace separator and path-like ones.
    private static func isValidGroupName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: { $0 == "," || $0 == ":" || $0 == "/" || $0 == "*" })
    }

    func channelRegistration(_ target: RequestTarget, _ exchange: Exchange) {
        guard let subscribeKey = self.subscribeKey(target, keywordAt: 2) else {
            return self.answer(exchange, .notFound)
        }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        var rest = Array(target.segments.dropFirst(4)).map { RequestTarget.decode($0) }
        var namespace = ""
        if rest.first == "namespace" {
            guard rest.count >= 2 else { return self.listNamespaces(exchange) }
            namespace = rest[1]
            guard OriginStore.isValidGroupName(namespace) else {
                return self.answer(exchange, OriginStore.registryError("Reserved character in input parameters."))
            }
            rest.removeFirst(2)
            if rest == ["remove"] { return self.removeNamespace(namespace, exchange) }
        }
        guard rest.first == "channel-group" else { return self.answer(exchange, .notFound) }
        switch rest.count {
        case 1:
            self.listGroups(namespace: namespace, exchange)
        case 2, 3:
            guard rest.count == 2 || rest[2] == "remove" else { return self.answer(exchange, .notFound) }
            guard OriginStore.isValidGroupName(rest[1]) else {
                return self.answer(exchange, OriginStore.registryError("Reserved character in input parameters."))
            }
            let group = namespace.isEmpty ? rest[1] : namespace + ":" + rest[1]
            if rest.count == 3 {
                self.groups[group] = nil
                self.groupChanged(group)
                return self.answer(exchange, OriginStore.registryOK())
            }
            self.modifyGroup(group, displayName: rest[1], target, exchange)
        default:
            self.answer(exchange, .notFound)
        }
    }

    /// `add=`/`remove=` change the group (a group left empty is deleted); neither lists it (unknown: empty list).
    private func modifyGroup(_ group: String, displayName: String, _ target: RequestTarget, _ exchange: Exchange) {
        let added = target.listParameter("add")
        let removed = target.listParameter("remove")
        guard target.parameter("add") != nil || target.parameter("remove") != nil else {
            let channels = self.groups[group]?.names ?? []
            let payload: JSONValue = .object([
                "channels": .array(channels.map { .string($0) }), "group": .string(displayName),
            ])
            return self.answer(exchange, OriginStore.registryOK(payload))
        }
        var members = self.groups[group] ?? OrderedNames()
        if self.groups[group] == nil, !added.isEmpty, self.groups.count >= self.settings.maxChannelGroups {
            return self.answer(exchange, OriginStore.registryError("Maximum channel group count exceeded."))
        }
        for channel in added { members.insert(channel) }
        for channel in removed { members.remove(channel) }
        guard members.count <= self.settings.maxChannelsPerGroup else {
            return self.answer(exchange, OriginStore.registryError("Maximum channel count per group exceeded."))
        }
        self.groups[group] = members.count == 0 ? nil : members
        self.groupChanged(group)
        self.answer(exchange, OriginStore.registryOK())
    }

    private func listGroups(namespace: String, _ exchange: Exchange) {
        let prefix = namespace.isEmpty ? "" : namespace + ":"
        let names = self.groups.keys.filter { name in
            namespace.isEmpty ? !name.contains(":") : name.hasPrefix(prefix)
        }.map { String($0.dropFirst(prefix.count)) }.sorted()
        let payload: JSONValue = .object([
            "namespace": .string(namespace), "groups": .array(names.map { .string($0) }),
        ])
        self.answer(exchange, OriginStore.registryOK(payload))
    }

    private func listNamespaces(_ exchange: Exchange) {
        let names = Set(self.groups.keys.compactMap { key in key.firstIndex(of: ":").map { String(key[..<$0]) } })
        let payload: JSONValue = .object(["namespaces": .array(names.sorted().map { .string($0) })])
        self.answer(exchange, OriginStore.registryOK(payload))
    }

    private func removeNamespace(_ namespace: String, _ exchange: Exchange) {
        for group in self.groups.keys where group.hasPrefix(namespace + ":") {
            self.groups[group] = nil
            self.groupChanged(group)
        }
        self.answer(exchange, OriginStore.registryOK())
    }
}
