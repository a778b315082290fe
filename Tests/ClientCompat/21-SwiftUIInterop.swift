// UIKit and SwiftUI together, as apps mix them: 2.8's UIKit `ConnectButton` and its controller inside a SwiftUI
// screen (`UIViewRepresentable`), and the SDK's SwiftUI `ConnectFlowButton` inside a UIKit screen
// (`UIHostingController`).
import Foundation
import IFTTTConnectSDK

#if canImport(UIKit) && canImport(SwiftUI)
import SwiftUI
import UIKit

struct ConnectButtonRepresentable: UIViewRepresentable {
    let style: ConnectButton.Style
    let configuration: ConnectionConfiguration
    let delegate: any ConnectButtonControllerDelegate

    final class Coordinator {
        var controller: ConnectButtonController?
    }

    func makeCoordinator() -> Coordinator {
        Coordinator()
    }

    func makeUIView(context: Context) -> ConnectButton {
        let button = ConnectButton()
        button.style = style
        context.coordinator.controller = ConnectButtonController(
            connectButton: button, connectionConfiguration: configuration, delegate: delegate)
        return button
    }

    func updateUIView(_ uiView: ConnectButton, context: Context) {
        uiView.style = style
    }
}

struct MixedScreen: View {
    let configuration: ConnectionConfiguration
    let delegate: any ConnectButtonControllerDelegate

    var body: some View {
        VStack {
            Text("Connect Grocery Express")
            ConnectButtonRepresentable(style: .dynamic, configuration: configuration, delegate: delegate)
        }
    }
}

@available(iOS 14.0, *)  // ConnectFlowButton needs iOS 14
final class HostedConnectViewController: UIHostingController<ConnectFlowButton> {
    init(configuration: ConnectionConfiguration) {
        super.init(
            rootView: ConnectFlowButton(
                configuration: configuration, style: .light,
                onEvent: { event in
                    if case .activated(let activation) = event { print(activation.userToken?.isEmpty ?? true) }
                }))
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
#endif
