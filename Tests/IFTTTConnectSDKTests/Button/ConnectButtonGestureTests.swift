#if canImport(UIKit) && os(iOS)
import Testing
import UIKit
@_spi(Sandbox) @testable import IFTTTConnectCore

/// 2.8's `ConnectButton` answered `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)` for its own tap
/// recognizer, so the button never stopped a scroll view. Runs on the iOS simulator (apple.yml).
@MainActor
@Suite("ConnectButton as a gesture-recognizer delegate")
struct ConnectButtonGestureTests {
    @Test func aRecognizerOnTheButtonRecognizesWithOthersOthersKeepUIKitsDefault() {
        let button = ConnectButton()
        let scrollView = UIScrollView()
        let tap = UITapGestureRecognizer()
        tap.delegate = button
        button.addGestureRecognizer(tap)
        let elsewhere = UITapGestureRecognizer()
        scrollView.addGestureRecognizer(elsewhere)
        #expect(button.gestureRecognizer(tap, shouldRecognizeSimultaneouslyWith: scrollView.panGestureRecognizer))
        #expect(!button.gestureRecognizer(elsewhere, shouldRecognizeSimultaneouslyWith: tap))
    }
}
#endif
