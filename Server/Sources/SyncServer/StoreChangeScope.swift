/// Whom a commit may concern, under users' access (``SyncRights``): the
/// partitions of the rows it wrote (before and after), whether it wrote a
/// row of no partition (a shared table's: every user reads it), and the
/// users whose grants changed. A long-poll of a user is woken only by a
/// commit whose scope concerns them (``StoreChangeInterest``); a commit
/// whose scope is unknown (nil: another process's, or one whose scope did
/// not fit a notification) wakes every waiter.
///
/// ```swift
/// let scope = plan.changeScope    // partitions ["group:notebook:…"], users []
/// notifier.publish(plan.counter, scope: scope)
/// ```
public struct StoreChangeScope: Sendable, Hashable, Codable {
    public var partitions: Set<String>
    /// Whether it wrote a row of no partition.
    public var concernsEveryone: Bool
    /// The users who gained or lost a grant (a group created is its
    /// owner's), whose readable partitions changed.
    public var users: Set<String>

    public init(partitions: Set<String> = [], concernsEveryone: Bool = false, users: Set<String> = []) {
        self.partitions = partitions
        self.concernsEveryone = concernsEveryone
        self.users = users
    }

    /// Whether a waiter of `interest` may see something of the commit.
    public func concerns(_ interest: StoreChangeInterest) -> Bool {
        concernsEveryone || users.contains(interest.user) || !partitions.isDisjoint(with: interest.partitions)
    }

    enum CodingKeys: String, CodingKey {
        case partitions = "p", concernsEveryone = "e", users = "u"
    }
}

/// What a waiting user reads, as a long-poll starts: their name and their
/// readable partitions (``SyncRights/readablePartitions``).
public struct StoreChangeInterest: Sendable, Hashable {
    public var user: String
    public var partitions: Set<String>

    public init(user: String, partitions: Set<String>) {
        self.user = user
        self.partitions = partitions
    }
}
