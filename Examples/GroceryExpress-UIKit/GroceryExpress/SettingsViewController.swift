import IFTTTConnectSDK
import UIKit

/// Lets the user pause the store geofences of the Connection without turning it off.
final class SettingsViewController: UIViewController {
    private let geofenceSwitch = UISwitch()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Settings"
        view.backgroundColor = .systemBackground

        let label = UILabel()
        label.text = "Use my location at the store"
        label.font = .preferredFont(forTextStyle: .body)

        geofenceSwitch.isOn = ConnectButtonController.geofencesEnabled(for: AppConfiguration.connectionId)
        geofenceSwitch.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                ConnectButtonController.setGeofencesEnabled(
                    enabled: self.geofenceSwitch.isOn, for: AppConfiguration.connectionId)
            }, for: .valueChanged)

        let row = UIStackView(arrangedSubviews: [label, geofenceSwitch])
        row.spacing = 12
        row.alignment = .center
        row.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(row)
        NSLayoutConstraint.activate([
            row.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            row.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor, constant: 20),
            row.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor, constant: -20),
        ])
    }
}
