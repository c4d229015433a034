package io.mclb.radius.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.tinyradius.dictionary.Dictionary;
import org.tinyradius.dictionary.DictionaryParser;
import org.tinyradius.dictionary.MemoryDictionary;
import org.tinyradius.packet.RadiusPacket;

/**
 * TinyRadius dictionaries for tests and tools (never the data path): the TinyRadius default
 * dictionary plus the 3GPP VSAs (vendor 10415, TS 29.061, numbers from
 * /work/shared/reference/radius.md section 7), which the default lacks (/work/shared/peers.md 3).
 * Parsed once (about 70 ms); the result is shared read-only.
 */
public final class Dictionaries {
    private static final String TGPP = String.join("\n",
            "VENDOR 10415 3GPP",
            "VENDORATTR 10415 3GPP-IMSI 1 string",
            "VENDORATTR 10415 3GPP-Charging-ID 2 integer",
            "VENDORATTR 10415 3GPP-PDP-Type 3 integer",
            "VENDORATTR 10415 3GPP-Charging-Gateway-Address 4 ipaddr",
            "VENDORATTR 10415 3GPP-GPRS-Negotiated-QoS-profile 5 string",
            "VENDORATTR 10415 3GPP-SGSN-Address 6 ipaddr",
            "VENDORATTR 10415 3GPP-GGSN-Address 7 ipaddr",
            "VENDORATTR 10415 3GPP-IMSI-MCC-MNC 8 string",
            "VENDORATTR 10415 3GPP-GGSN-MCC-MNC 9 string",
            "VENDORATTR 10415 3GPP-NSAPI 10 string",
            "VENDORATTR 10415 3GPP-Selection-Mode 12 string",
            "VENDORATTR 10415 3GPP-Charging-Characteristics 13 string",
            "VENDORATTR 10415 3GPP-SGSN-MCC-MNC 18 string",
            "VENDORATTR 10415 3GPP-IMEISV 20 string",
            "VENDORATTR 10415 3GPP-User-Location-Info 22 octets",
            "") ;

    private Dictionaries() {
    }

    /** TinyRadius default dictionary + 3GPP, loaded on first call. */
    public static Dictionary standard() {
        return Holder.STANDARD;
    }

    private static final class Holder {
        static final Dictionary STANDARD = load();

        private static Dictionary load() {
            MemoryDictionary dict = new MemoryDictionary();
            try (InputStream in = RadiusPacket.class.getResourceAsStream("/org/tinyradius/dictionary/default_dictionary")) {
                DictionaryParser.parseDictionary(in, dict);
                DictionaryParser.parseDictionary(new ByteArrayInputStream(TGPP.getBytes(StandardCharsets.US_ASCII)), dict);
            } catch (IOException e) {
                throw new UncheckedIOException("TinyRadius dictionary", e);
            }
            return dict;
        }
    }
}
