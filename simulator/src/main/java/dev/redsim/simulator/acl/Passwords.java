package dev.redsim.simulator.acl;

import dev.redsim.simulator.acl.AclRuleError.Reason;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/** Passwords as Redis keeps them: SHA-256 in lower-case hex, compared in constant time; ACL GENPASS. */
final class Passwords {
    private Passwords() {
    }

    /** The hash of a clear-text password given as ISO-8859-1 text (its bytes). */
    static String hash(String clearText) {
        return hash(clearText.getBytes(StandardCharsets.ISO_8859_1));
    }

    static String hash(byte[] clearText) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(clearText));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    /** A hash given with #, checked as Redis checks it: exactly 64 characters of 0-9 and a-f. */
    static String checkedHash(String hash) throws AclRuleError {
        if (hash.length() != 64) {
            throw new AclRuleError(Reason.BAD_HASH);
        }
        for (int i = 0; i < hash.length(); i++) {
            char c = hash.charAt(i);
            if ((c < 'a' || c > 'f') && (c < '0' || c > '9')) {
                throw new AclRuleError(Reason.BAD_HASH);
            }
        }
        return hash;
    }

    /** Whether the password's hash is one of these, looking at every one whatever matches (no timing hint). */
    static boolean matchesAny(List<String> hashes, byte[] password) {
        byte[] candidate = hash(password).getBytes(StandardCharsets.US_ASCII);
        boolean found = false;
        for (String hash : hashes) {
            found |= MessageDigest.isEqual(candidate, hash.getBytes(StandardCharsets.US_ASCII));
        }
        return found;
    }

    /** ACL GENPASS: {@code (bits + 3) / 4} random hex characters. */
    static String generate(long bits) {
        int chars = (int) ((bits + 3) / 4);
        byte[] random = new byte[(chars + 1) / 2];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random).substring(0, chars);
    }
}
