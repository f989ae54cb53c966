package dev.mcpfusion.auth;

import dev.mcpfusion.core.Caller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * API keys for simple deployments, stored hashed: the file holds each key's SHA-256, never the key.
 * One key a line, {@code #} comments and blank lines ignored:
 *
 * <pre>
 * # sha256:&lt;hex of the key's SHA-256&gt;  subject  [scope ...]
 * sha256:5e88489…  reporting-bot  invoices:read
 * </pre>
 *
 * <p>A client sends its key as {@code Authorization: Bearer <key>} or {@code X-API-Key: <key>}; the
 * caller is the line's subject with its scopes. Keys must be long and random ({@link #generate()}
 * makes one, {@link #hash} its line's hash): an unsalted hash is then as good as a salted one, and
 * lets a key be found with one lookup.
 */
public final class ApiKeys {
  private static final Pattern HASH = Pattern.compile("sha256:[0-9a-f]{64}");

  private final Map<String, Caller> byHash;

  private ApiKeys(Map<String, Caller> byHash) {
    this.byHash = Map.copyOf(byHash);
  }

  /**
   * The keys of {@code file}.
   *
   * @throws IOException when it cannot be read
   * @throws IllegalArgumentException naming the line that is not {@code sha256:<hex> subject [scope ...]}
   */
  public static ApiKeys load(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
  }

  /** The keys of these lines (the file's format); {@code source} names them in errors. */
  public static ApiKeys parse(List<String> lines, String source) {
    Map<String, Caller> keys = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\\s+");
      if (parts.length < 2 || !HASH.matcher(parts[0]).matches()) {
        throw new IllegalArgumentException(source + ":" + (i + 1) + ": expected 'sha256:<64 hex"
            + " digits> subject [scope ...]'; write the hash with ApiKeys.hash(key), never the key.");
      }
      Caller caller = Caller.of(parts[1], null, Arrays.asList(parts).subList(2, parts.length), Map.of());
      if (keys.putIfAbsent(parts[0].substring(7), caller) != null) {
        throw new IllegalArgumentException(source + ":" + (i + 1) + ": this hash is already listed.");
      }
    }
    return new ApiKeys(keys);
  }

  /** The line's hash of {@code key}: {@code sha256:} and its SHA-256 in lower-case hex. */
  public static String hash(String key) {
    return "sha256:" + Tokens.sha256(key);
  }

  /** A new random key (32 bytes from a {@link SecureRandom}, base64url without padding). */
  public static String generate() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** How many keys there are. */
  public int size() {
    return byHash.size();
  }

  /** The caller of {@code key}, or {@code null} when it is not one of these keys. */
  Caller find(String key) {
    return byHash.get(Tokens.sha256(key));
  }
}
