#if canImport(UIKit) && os(iOS)
import Testing
import UIKit
@_spi(Sandbox) @testable import IFTTTConnectCore

/// 2.8's `ConnectButton` answered `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)` for its own tap
/// recognizer, so the button never stopped a scroll view. This button reads its touches itself, on its internal
/// canvas, and adds no recognizer of its own: the only one on it is the Large Content Viewer interaction's, which
/// UIKit manages. Runs on the iOS simulator (apple.yml).
@MainActor
@Suite("ConnectButton adds no gesture recognizer a scroll view would compete with")
struct ConnectButtonGestureTests {
    @Test func theButtonAndItsCanvasAddNoRecognizer() {
        let button = ConnectButton(frame: CGRect(x: 0, y: 0, width: 320, height: 80))
        button.layoutIfNeeded()
        #expect(button.canvas.superview === button)
        #expect(button.canvas.gestureRecognizers?.isEmpty ?? true)
        let interactionRecognizers = button.interactions.compactMap {
            ($0 as? UILargeContentViewerInteraction)?.gestureRecognizerForExclusionRelationship
        }
        for recognizer in button.gestureRecognizers ?? [] {
            #expect(interactionRecognizers.contains { $0 === recognizer }, "\(type(of: recognizer)) on the button")
        }
    }
}
#endif
