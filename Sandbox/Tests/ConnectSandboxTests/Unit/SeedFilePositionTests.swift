@testable import ConnectSandbox
import Foundation
import Testing

/// A seed file that is valid JSON but not in the seed format names the JSON path and the line and column (1-based,
/// the column in bytes) where the offending value starts; for a missing key, where the object that lacks it starts.
/// Before, the message gave the JSON path only.
@Suite("Seed file shape errors with their position")
struct SeedFilePositionTests {
    /// The problem of decoding `text` as a seed file.
    static func problem(_ text: String) -> String {
        do {
            _ = try SeedData.decode(Data(text.utf8), path: "seed.json")
            return "decoded without an error"
        } catch {
            guard case .malformedSeedFile(let path, let problem) = error, path == "seed.json" else {
                return "unexpected \(error)"
            }
            return problem
        }
    }

    @Test(
        arguments: [
            // A number where a string belongs, on the fourth line.
            (
                """
                {
                  "services": [
                    {"id": "x", "name": "X",
                     "brand_color": 5}
                  ]
                }
                """,
                "at services[0].brand_color (line 4, column 21): expected a string"
            ),
            // A missing key: the object that lacks it.
            (
                """
                {"services": [
                  {"id": "a", "name": "A", "brand_color": "#112233"},
                  {"id": "b", "brand_color": "#112233"}
                ]}
                """,
                #"at services[1] (line 3, column 3): the key "name" is missing"#
            ),
            // null where a value is required.
            (
                #"{"users": [{"id": null, "email": "u@example.com"}]}"#,
                "at users[0].id (line 1, column 19): expected a string, found null"
            ),
            // Not an object at the top, after a blank line and indentation.
            ("\n  [1, 2]\n", "at the top level (line 2, column 3): expected an object"),
            // A key written with an escape is the key it spells.
            (
                #"{"serv\u0069ces": {"id": "x"}}"#,
                "at services (line 1, column 19): expected an array"
            ),
            // Columns count bytes: "é" is two.
            (#"{"users": [{"id": "é", "email": 3}]}"#, "at users[0].email (line 1, column 34): expected a string"),
            // The format's own rule (a step has one kind), deep in a connection, with CRLF line ends.
            (
                "{\"connections\": [{\"id\": \"c\", \"name\": \"C\", \"primary_service_id\": \"s\", \"features\": [\r\n"
                    + "  {\"id\": \"f\", \"title\": \"F\", \"feature_triggers\": [\r\n"
                    + "    {\"id\": \"t1\", \"trigger_id\": \"t\", \"action_id\": \"a\", \"service_id\": \"s\"}]}]}]}\r\n",
                "at connections[0].features[0].feature_triggers[0].action_id (line 3, column 50):"
                    + " a step has only one of trigger_id, query_id, action_id"
            ),
        ] as [(String, String)])
    func aShapeErrorNamesItsPathLineAndColumn(text: String, expected: String) {
        #expect(Self.problem(text) == expected)
    }

    /// The position a path leads to, straight from the locator: the deepest value that exists on it.
    @Test func thePositionOfAPathStopsAtTheDeepestValueThatExists() throws {
        let text = Data("{\"a\": [10, {\"b\": [\n  true, \"x\"]}], \"c\": {}}".utf8)
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) {
                self.stringValue = "\(intValue)"
                self.intValue = intValue
            }
        }
        func position(_ path: [Key]) -> String? {
            JSONSyntaxPosition.valueStart(at: path, in: text).map { "\($0.line):\($0.column)" }
        }
        #expect(position([]) == "1:1")
        #expect(position([Key(stringValue: "a")]) == "1:7")
        #expect(position([Key(stringValue: "a"), Key(intValue: 0)]) == "1:8")
        #expect(position([Key(stringValue: "a"), Key(intValue: 1), Key(stringValue: "b"), Key(intValue: 1)]) == "2:9")
        // Past the end of an array, a missing key, an index into an object: where the path leaves the text.
        #expect(position([Key(stringValue: "a"), Key(intValue: 5)]) == "1:7")
        #expect(position([Key(stringValue: "c"), Key(stringValue: "d")]) == "2:22")
        #expect(position([Key(intValue: 0)]) == "1:1")
        // Not valid JSON: no position.
        #expect(JSONSyntaxPosition.valueStart(at: [], in: Data("{".utf8)) == nil)
    }
}
