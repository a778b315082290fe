// UIKit and SwiftUI together, as apps mix them: 2.8's UIKit `ConnectButton` inside a SwiftUI screen
// (`UIViewRepresentable`), the SDK's SwiftUI `ConnectButtonView` inside a UIKit screen (`UIHostingController`), and
// the button as the delegate 2.8 made it for a tap recognizer inside a scroll view.
import Foundation
import IFTTTConnectSDK

#if canImport(UIKit) && canImport(SwiftUI)
import SwiftUI
import UIKit

struct ConnectButtonRepresentable: UIViewRepresentable {
    let style: ConnectButton.Style
    let onTap: () -> Void

    func makeUIView(context: Context) -> ConnectButton {
        let button = ConnectButton()
        button.style = style
        button.onTap = onTap
        return button
    }

    func updateUIView(_ uiView: ConnectButton, context: Context) {
        uiView.style = style
    }
}

struct MixedScreen: View {
    var body: some View {
        VStack {
            Text("Connect Grocery Express")
            ConnectButtonRepresentable(style: .dynamic) { print("tapped") }
        }
    }
}

@available(iOS 14.0, *)  // ConnectButtonView needs iOS 14
final class HostedConnectViewController: UIHostingController<ConnectButtonView> {
    init() {
        super.init(rootView: ConnectButtonView(state: .connect, connection: nil, style: .light))
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    func show(_ state: ConnectButtonVisualState) {
        rootView.state = state
    }
}

@MainActor
func tapRecognizerKeepsScrolling(button: ConnectButton, tap: UIGestureRecognizer, pan: UIGestureRecognizer) -> Bool {
    button.gestureRecognizer(tap, shouldRecognizeSimultaneouslyWith: pan)
}
#endif
