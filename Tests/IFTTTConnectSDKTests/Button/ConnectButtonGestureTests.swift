#if canImport(UIKit) && os(iOS)
import Testing
import UIKit
@_spi(Sandbox) @testable import IFTTTConnectCore

/// 2.8's `ConnectButton` answered `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)` for its own tap
/// recognizer, so the button never stopped a scroll view. This button reads its touches itself (on its internal
/// canvas) and adds no recognizer anywhere in its view tree (the email field's own text interactions aside), so a scroll view around it keeps UIKit's default
/// handling. Runs on the iOS simulator (apple.yml).
@MainActor
@Suite("ConnectButton adds no gesture recognizer a scroll view would compete with")
struct ConnectButtonGestureTests {
    @Test func noViewOfTheButtonHasAGestureRecognizer() {
        let button = ConnectButton(frame: CGRect(x: 0, y: 0, width: 320, height: 80))
        button.layoutIfNeeded()
        var views: [UIView] = [button]
        var seen = 0
        while let view = views.popLast() {
            if view is UITextField { continue }  // UIKit's own text interactions, active only while editing
            seen += 1
            #expect(view.gestureRecognizers?.isEmpty ?? true, "\(type(of: view)) has a gesture recognizer")
            views += view.subviews
        }
        #expect(seen > 1)  // the canvas at least
    }
}
#endif
