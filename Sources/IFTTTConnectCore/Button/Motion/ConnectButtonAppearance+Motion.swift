import Foundation

extension ConnectButtonAppearance {
    /// This appearance (the state being entered) at one moment of a transition from `previous`, as one opaque
    /// appearance that a renderer without per-part opacity draws as it is: the knob at the frame's position and
    /// scale, the progress bar at the frame's fill, the checkmark grown, and faded parts blended into the pill's
    /// colour. The label shows the old text during the first half of the change and the new one after, each
    /// blended by its opacity (the SVG frames, which have opacity, draw both at once); the footer, which sits on the
    /// host's background, does the same with its ``Footer/opacity``. The checkmark carries its circle's scale, its
    /// stroke and its dot (``ConnectButtonCheckmarkShape``), and ``pillOffset`` the invalid-email shake.
    ///
    /// UIKit and SwiftUI draw this on every display refresh while a ``ConnectButtonMotion`` runs.
    public func applying(_ frame: ConnectButtonMotionFrame, from previous: ConnectButtonAppearance)
        -> ConnectButtonAppearance
    {
        var result = self
        let blend = min(1, max(0, frame.backgroundBlend))
        result.backgroundColor = previous.backgroundColor.mixed(with: backgroundColor, amount: blend)
        let pill = result.backgroundColor

        if let fraction = frame.progress, var progress = result.progress {
            progress.fraction = min(1, max(0, fraction))
            result.progress = progress
        }

        // The label: one slot, so the old text until the new one has begun to show.
        if var incoming = label, previous.label?.text == incoming.text {
            incoming.color = pill.mixed(with: incoming.color, amount: frame.pulseOpacity)
            incoming.pulse = nil
            result.label = incoming
        } else if var incoming = label, frame.incomingLabelOpacity > 0 || previous.label == nil {
            incoming.color = pill.mixed(with: incoming.color, amount: frame.incomingLabelOpacity)
            incoming.pulse = nil
            result.label = incoming
        } else if var outgoing = previous.label, frame.outgoingLabelOpacity > 0 {
            outgoing.color = pill.mixed(with: outgoing.color, amount: frame.outgoingLabelOpacity)
            outgoing.pulse = nil
            result.label = outgoing
        } else {
            result.label = nil
        }

        if let motion = frame.knob, var knob = knob ?? previous.knob, motion.opacity > 0 {
            knob.position = motion.position
            knob.frame = geometry.knobFrame(
                position: motion.position, scale: motion.scale, direction: layoutDirection)
            let size = ConnectButtonGeometry.iconSize
            knob.iconFrame = ConnectButtonRect(
                x: knob.frame.midX - size / 2, y: knob.frame.midY - size / 2, width: size, height: size)
            knob.color = pill.mixed(with: knob.color, amount: motion.opacity)
            knob.shadowOpacity *= motion.opacity
            if motion.opacity < 0.5 { knob.icon = .none }
            result.knob = knob
        } else {
            result.knob = nil
        }

        if var field = emailField ?? previous.emailField, let opacity = frame.emailOpacity, opacity > 0 {
            field.textColor = pill.mixed(with: field.textColor, amount: opacity)
            field.confirmColor = pill.mixed(with: field.confirmColor, amount: opacity)
            field.confirmGlyphColor = pill.mixed(with: field.confirmGlyphColor, amount: opacity)
            result.emailField = field
        } else {
            result.emailField = nil
        }

        if var checkmark = checkmark ?? previous.checkmark, let motion = frame.checkmark, motion.opacity > 0 {
            checkmark.circleScale = motion.scale
            checkmark.stroke = motion.stroke
            checkmark.dot = motion.dot
            checkmark.color = pill.mixed(with: checkmark.color, amount: motion.opacity)
            result.checkmark = checkmark
        } else {
            result.checkmark = nil
        }

        // The footer: one slot, so the old one until the new one has begun to show; it keeps its place when both
        // say the same.
        if let incoming = footer, let outgoing = previous.footer, incoming.text != outgoing.text {
            if frame.incomingFooterOpacity > 0 || frame.outgoingFooterOpacity <= 0 {
                result.footer?.opacity = frame.incomingFooterOpacity
            } else {
                var old = outgoing
                old.opacity = frame.outgoingFooterOpacity
                result.footer = old
            }
        }

        // The shake moves the pill towards the leading edge first.
        result.pillOffset = layoutDirection == .rightToLeft ? -frame.pillOffset : frame.pillOffset
        return result
    }
}
