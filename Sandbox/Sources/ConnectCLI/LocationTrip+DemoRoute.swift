import Foundation

extension LocationTrip {
    /// The demo's route, identical to `Sandbox/Examples/store-trip.gpx` (a test checks): a walk into and out of
    /// gx-store-visits' area, then into and out of gx-arrive-store's.
    static let demoGPX = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="ifttt-connect" xmlns="http://www.topografix.com/GPX/1/1">
          <!-- A walk in San Francisco across the demo geofences: into and out of gx-store-visits (1 Van Ness Ave, r=200 m),
               then into and out of gx-arrive-store (923 Market St, r=150 m). 40 m every 30 s. -->
          <trk><name>store-trip</name><trkseg>
            <trkpt lat="37.770000" lon="-122.426000"><time>2026-05-01T09:00:00Z</time></trkpt>
            <trkpt lat="37.770250" lon="-122.425662"><time>2026-05-01T09:00:30Z</time></trkpt>
            <trkpt lat="37.770500" lon="-122.425323"><time>2026-05-01T09:01:00Z</time></trkpt>
            <trkpt lat="37.770750" lon="-122.424985"><time>2026-05-01T09:01:30Z</time></trkpt>
            <trkpt lat="37.771000" lon="-122.424646"><time>2026-05-01T09:02:00Z</time></trkpt>
            <trkpt lat="37.771250" lon="-122.424308"><time>2026-05-01T09:02:30Z</time></trkpt>
            <trkpt lat="37.771500" lon="-122.423969"><time>2026-05-01T09:03:00Z</time></trkpt>
            <trkpt lat="37.771750" lon="-122.423631"><time>2026-05-01T09:03:30Z</time></trkpt>
            <trkpt lat="37.772000" lon="-122.423292"><time>2026-05-01T09:04:00Z</time></trkpt>
            <trkpt lat="37.772250" lon="-122.422954"><time>2026-05-01T09:04:30Z</time></trkpt>
            <trkpt lat="37.772500" lon="-122.422615"><time>2026-05-01T09:05:00Z</time></trkpt>
            <trkpt lat="37.772750" lon="-122.422277"><time>2026-05-01T09:05:30Z</time></trkpt>
            <trkpt lat="37.773000" lon="-122.421938"><time>2026-05-01T09:06:00Z</time></trkpt>
            <trkpt lat="37.773250" lon="-122.421600"><time>2026-05-01T09:06:30Z</time></trkpt>
            <trkpt lat="37.773500" lon="-122.421262"><time>2026-05-01T09:07:00Z</time></trkpt>
            <trkpt lat="37.773750" lon="-122.420923"><time>2026-05-01T09:07:30Z</time></trkpt>
            <trkpt lat="37.774000" lon="-122.420585"><time>2026-05-01T09:08:00Z</time></trkpt>
            <trkpt lat="37.774250" lon="-122.420246"><time>2026-05-01T09:08:30Z</time></trkpt>
            <trkpt lat="37.774500" lon="-122.419908"><time>2026-05-01T09:09:00Z</time></trkpt>
            <trkpt lat="37.774750" lon="-122.419569"><time>2026-05-01T09:09:30Z</time></trkpt>
            <trkpt lat="37.775000" lon="-122.419231"><time>2026-05-01T09:10:00Z</time></trkpt>
            <trkpt lat="37.775250" lon="-122.418892"><time>2026-05-01T09:10:30Z</time></trkpt>
            <trkpt lat="37.775500" lon="-122.418554"><time>2026-05-01T09:11:00Z</time></trkpt>
            <trkpt lat="37.775750" lon="-122.418215"><time>2026-05-01T09:11:30Z</time></trkpt>
            <trkpt lat="37.776000" lon="-122.417877"><time>2026-05-01T09:12:00Z</time></trkpt>
            <trkpt lat="37.776250" lon="-122.417538"><time>2026-05-01T09:12:30Z</time></trkpt>
            <trkpt lat="37.776500" lon="-122.417200"><time>2026-05-01T09:13:00Z</time></trkpt>
            <trkpt lat="37.776750" lon="-122.416877"><time>2026-05-01T09:13:30Z</time></trkpt>
            <trkpt lat="37.777000" lon="-122.416553"><time>2026-05-01T09:14:00Z</time></trkpt>
            <trkpt lat="37.777250" lon="-122.416230"><time>2026-05-01T09:14:30Z</time></trkpt>
            <trkpt lat="37.777500" lon="-122.415907"><time>2026-05-01T09:15:00Z</time></trkpt>
            <trkpt lat="37.777750" lon="-122.415583"><time>2026-05-01T09:15:30Z</time></trkpt>
            <trkpt lat="37.778000" lon="-122.415260"><time>2026-05-01T09:16:00Z</time></trkpt>
            <trkpt lat="37.778250" lon="-122.414937"><time>2026-05-01T09:16:30Z</time></trkpt>
            <trkpt lat="37.778500" lon="-122.414613"><time>2026-05-01T09:17:00Z</time></trkpt>
            <trkpt lat="37.778750" lon="-122.414290"><time>2026-05-01T09:17:30Z</time></trkpt>
            <trkpt lat="37.779000" lon="-122.413967"><time>2026-05-01T09:18:00Z</time></trkpt>
            <trkpt lat="37.779250" lon="-122.413643"><time>2026-05-01T09:18:30Z</time></trkpt>
            <trkpt lat="37.779500" lon="-122.413320"><time>2026-05-01T09:19:00Z</time></trkpt>
            <trkpt lat="37.779750" lon="-122.412997"><time>2026-05-01T09:19:30Z</time></trkpt>
            <trkpt lat="37.780000" lon="-122.412673"><time>2026-05-01T09:20:00Z</time></trkpt>
            <trkpt lat="37.780250" lon="-122.412350"><time>2026-05-01T09:20:30Z</time></trkpt>
            <trkpt lat="37.780500" lon="-122.412027"><time>2026-05-01T09:21:00Z</time></trkpt>
            <trkpt lat="37.780750" lon="-122.411703"><time>2026-05-01T09:21:30Z</time></trkpt>
            <trkpt lat="37.781000" lon="-122.411380"><time>2026-05-01T09:22:00Z</time></trkpt>
            <trkpt lat="37.781250" lon="-122.411057"><time>2026-05-01T09:22:30Z</time></trkpt>
            <trkpt lat="37.781500" lon="-122.410733"><time>2026-05-01T09:23:00Z</time></trkpt>
            <trkpt lat="37.781750" lon="-122.410410"><time>2026-05-01T09:23:30Z</time></trkpt>
            <trkpt lat="37.782000" lon="-122.410087"><time>2026-05-01T09:24:00Z</time></trkpt>
            <trkpt lat="37.782250" lon="-122.409763"><time>2026-05-01T09:24:30Z</time></trkpt>
            <trkpt lat="37.782500" lon="-122.409440"><time>2026-05-01T09:25:00Z</time></trkpt>
            <trkpt lat="37.782750" lon="-122.409117"><time>2026-05-01T09:25:30Z</time></trkpt>
            <trkpt lat="37.783000" lon="-122.408793"><time>2026-05-01T09:26:00Z</time></trkpt>
            <trkpt lat="37.783250" lon="-122.408470"><time>2026-05-01T09:26:30Z</time></trkpt>
            <trkpt lat="37.783500" lon="-122.408147"><time>2026-05-01T09:27:00Z</time></trkpt>
            <trkpt lat="37.783750" lon="-122.407823"><time>2026-05-01T09:27:30Z</time></trkpt>
            <trkpt lat="37.784000" lon="-122.407500"><time>2026-05-01T09:28:00Z</time></trkpt>
            <trkpt lat="37.784240" lon="-122.407160"><time>2026-05-01T09:28:30Z</time></trkpt>
            <trkpt lat="37.784480" lon="-122.406820"><time>2026-05-01T09:29:00Z</time></trkpt>
            <trkpt lat="37.784720" lon="-122.406480"><time>2026-05-01T09:29:30Z</time></trkpt>
            <trkpt lat="37.784960" lon="-122.406140"><time>2026-05-01T09:30:00Z</time></trkpt>
            <trkpt lat="37.785200" lon="-122.405800"><time>2026-05-01T09:30:30Z</time></trkpt>
            <trkpt lat="37.785440" lon="-122.405460"><time>2026-05-01T09:31:00Z</time></trkpt>
            <trkpt lat="37.785680" lon="-122.405120"><time>2026-05-01T09:31:30Z</time></trkpt>
            <trkpt lat="37.785920" lon="-122.404780"><time>2026-05-01T09:32:00Z</time></trkpt>
            <trkpt lat="37.786160" lon="-122.404440"><time>2026-05-01T09:32:30Z</time></trkpt>
            <trkpt lat="37.786400" lon="-122.404100"><time>2026-05-01T09:33:00Z</time></trkpt>
            <trkpt lat="37.786640" lon="-122.403760"><time>2026-05-01T09:33:30Z</time></trkpt>
            <trkpt lat="37.786880" lon="-122.403420"><time>2026-05-01T09:34:00Z</time></trkpt>
            <trkpt lat="37.787120" lon="-122.403080"><time>2026-05-01T09:34:30Z</time></trkpt>
            <trkpt lat="37.787360" lon="-122.402740"><time>2026-05-01T09:35:00Z</time></trkpt>
            <trkpt lat="37.787600" lon="-122.402400"><time>2026-05-01T09:35:30Z</time></trkpt>
            <trkpt lat="37.787840" lon="-122.402060"><time>2026-05-01T09:36:00Z</time></trkpt>
            <trkpt lat="37.788080" lon="-122.401720"><time>2026-05-01T09:36:30Z</time></trkpt>
            <trkpt lat="37.788320" lon="-122.401380"><time>2026-05-01T09:37:00Z</time></trkpt>
            <trkpt lat="37.788560" lon="-122.401040"><time>2026-05-01T09:37:30Z</time></trkpt>
            <trkpt lat="37.788800" lon="-122.400700"><time>2026-05-01T09:38:00Z</time></trkpt>
            <trkpt lat="37.789040" lon="-122.400360"><time>2026-05-01T09:38:30Z</time></trkpt>
            <trkpt lat="37.789280" lon="-122.400020"><time>2026-05-01T09:39:00Z</time></trkpt>
            <trkpt lat="37.789520" lon="-122.399680"><time>2026-05-01T09:39:30Z</time></trkpt>
            <trkpt lat="37.789760" lon="-122.399340"><time>2026-05-01T09:40:00Z</time></trkpt>
            <trkpt lat="37.790000" lon="-122.399000"><time>2026-05-01T09:40:30Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """#
}
