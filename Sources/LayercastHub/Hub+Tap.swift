import LayercastSceneAPI
import LayercastWire

// The hub's one tap path, for a tap from a client here and one forwarded by another node alike.
extension Hub {
    /// Taps in `room`, this node's: the controller's rule (`SceneController.admitTap`), then `Room.tap`
    /// (decide, commit, confirm); refusals under a scene rule and awards are counted and the
    /// events broadcast. Returns the error for the tapper when the controller refused the tap. A
    /// claim is answered when its commit settles, at the latest at the ledger's deadline counted
    /// from `now` (then `ledger_unavailable`, and nothing was announced). `local` is the tapping
    /// client when it is on this node: the write of its answer is timed from `now` (`tapLatency`).
    func tap(x: Double, y: Double, viewTime: Double, by tapper: Tapper, local: Client?, in room: Room, at now: Double) -> ProtocolError? {
        guard let controller = room.controller, !room.awaitsTakeover else {
            return ProtocolError(.notReady, "the room is starting on this server; try again in a moment")
        }
        if let refusal = controller.admitTap(by: tapper.player, in: room) { return refusal }
        // The ledger's own awarding service takes the tap's deadline; a scene's own one (tests) is used as it is.
        let awarding = controller.awarding === ledger ? ledger.awarding(arrivedAt: now) : controller.awarding
        room.tap(x: x, y: y, viewTime: viewTime, by: tapper, at: now, in: controller, awarding: awarding) { [self] result in
            tapped(result, by: tapper, local: local, in: room, at: now)
        }
        return nil
    }

    /// Tells what became of a tap: the events, or `ledger_unavailable` when its commit failed.
    private func tapped(_ result: TapResult, by tapper: Tapper, local: Client?, in room: Room, at now: Double) {
        if let failure = result.failure {
            logger.error("an award could not be committed", metadata: ["room": "\(room.name)", "error": "\(failure)"])
            let error = ProtocolError(.ledgerUnavailable, "the award could not be recorded in time, so nothing was awarded; tap again")
            // The ledger's failure, not the client's: it does not count towards closing it for abuse (`reject`).
            if let local {
                metrics.rejected[error.code, default: 0] += 1
                if clients[local.id] === local { enqueue(encoded(ServerMessage.error(error)), to: local, tapArrival: nil) }
            } else {
                deliverError(error, to: tapper.client, in: room)
            }
            // A fenced commit means another node holds the room now: this one steps down (docs/cluster.md).
            commitFailed(failure, in: room)
            return
        }
        if case .refused(let rule) = result.outcome { metrics.countRefusal(scene: room.sceneID, rule: rule) }
        if result.awarded { metrics.countAward(scene: room.sceneID) }
        if let local, result.events.contains(where: { $0.client == local.name }) {
            broadcast(result.events, in: room, tapArrival: now, tapper: local)
        } else {
            if local != nil { metrics.tapLatency.observe(clock.now - now) }
            broadcast(result.events, in: room, tapArrival: nil)
        }
    }
}
