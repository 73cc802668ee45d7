import Foundation
import Testing

@testable import Presenter

/// The link pages' text: escaping that no grapheme cluster slips past.
@Suite("Universal link pages")
struct AppLinkPresenterTests {
    @Test(arguments: ["<b>", "\u{0600}<meta http-equiv=refresh>", "x\"\u{200D} onload=1", "\"\u{301}", "'&>", "<\u{20DD}"])
    func noMarkupSurvivesEscapingWhateverItIsJoinedTo(text: String) {
        let escaped = AppLinkPresenter.escaped(text)
        #expect(!escaped.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }, "\(escaped)")
        // Nothing else changes: unescaping, scalar by scalar, gives the text back.
        #expect(Self.unescaped(escaped).unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    static func unescaped(_ html: String) -> String {
        let references = ["lt": "<", "gt": ">", "quot": "\"", "#39": "'", "amp": "&"]
        var out = String.UnicodeScalarView()
        var reference: String.UnicodeScalarView?
        for scalar in html.unicodeScalars {
            if scalar == "&" {
                reference = String.UnicodeScalarView()
            } else if scalar == ";", let name = reference {
                out.append(contentsOf: (references[String(name)] ?? "?").unicodeScalars)
                reference = nil
            } else if reference != nil {
                reference!.append(scalar)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
