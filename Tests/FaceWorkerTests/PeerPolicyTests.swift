import WorkerCore
import XCTest

/// Who may connect: the decision the worker makes from each peer's SO_PEERCRED credentials.
final class PeerPolicyTests: XCTestCase {
    func testTheWorkersOwnUserIsAllowed() {
        let policy = PeerPolicy(workerUID: 1000)
        XCTAssertTrue(policy.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)))
    }

    func testAnotherUserIsRefusedUnlessAllowed() {
        let stranger = PeerCredentials(pid: 1, uid: 1001, gid: 1001)
        XCTAssertFalse(PeerPolicy(workerUID: 1000).allows(stranger))
        XCTAssertTrue(PeerPolicy(workerUID: 1000, allowedUIDs: [1001]).allows(stranger))
    }

    func testRootIsNotSpecial() {
        XCTAssertFalse(PeerPolicy(workerUID: 1000).allows(PeerCredentials(pid: 1, uid: 0, gid: 0)))
    }

    func testAnAllowedGroupAdmitsItsMembers() {
        let policy = PeerPolicy(workerUID: 1000, allowedGIDs: [44])
        XCTAssertTrue(policy.allows(PeerCredentials(pid: 1, uid: 1002, gid: 44)))
        XCTAssertFalse(policy.allows(PeerCredentials(pid: 1, uid: 1002, gid: 45)))
    }
}
