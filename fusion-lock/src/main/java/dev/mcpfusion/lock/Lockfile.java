package dev.mcpfusion.lock;

import dev.mcpfusion.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code mcpfusion.lock} text: canonical JSON (keys sorted at every level, 2-space indent,
 * {@code "key": value}, trailing newline, UTF-8), {@code lockfileVersion} 1, a {@code sha256:}
 * digest per tool and for the server, and no timestamp or path anywhere, so unchanged code gives
 * a byte-identical file.
 */
public final class Lockfile {
  /** The conventional file name, at the connector's root. */
  public static final String FILE_NAME = "mcpfusion.lock";

  /**
   * The lockfile a new project starts with (fusion-archetype ships it): it records no contract
   * yet, and the check goal replaces it with the connector's contract on the first build. The
   * contract cannot ship with the project, since it names the project's own classes inside its
   * digests; and a missing lockfile fails the check, so deleting the file cannot switch the drift
   * gate off: only this seed, or an explicit update, writes a lockfile where there was none.
   */
  public static final String SEED = "{\n"
      + "  \"lockfileVersion\": 1,\n"
      + "  \"seed\": \"No contract recorded yet: the first mvn verify (the check goal of"
      + " fusion-maven-plugin) replaces this seed with the connector's capability contract. Commit"
      + " the result.\"\n"
      + "}\n";

  private Lockfile() {}

  /** The lockfile text of {@code contract}. */
  public static String write(Contract contract) {
    return Canonical.pretty(contract.toTree());
  }

  /** Writes {@link #write} to {@code file} as UTF-8, replacing it. */
  public static void write(Contract contract, Path file) throws IOException {
    Files.writeString(file, write(contract), StandardCharsets.UTF_8);
  }

  /**
   * Reads a lockfile back into its contract, checking every digest.
   *
   * @throws IllegalArgumentException if the text is not a valid version-1 lockfile (a
   *     {@linkplain #isSeed seed} included) or a digest does not match (the message names the JSON
   *     path and the fix)
   */
  public static Contract read(String text) {
    Object tree;
    try {
      tree = Json.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mcpfusion.lock is not valid JSON (" + e.getMessage()
          + "); resolve the merge or regenerate it with the lock goal", e);
    }
    if (isSeed(tree)) {
      throw new IllegalArgumentException("mcpfusion.lock is a new project's seed and records no"
          + " contract yet; run the check goal once (mvn verify) to write it, then commit it");
    }
    return Contract.fromTree(tree);
  }

  /** Whether {@code text} is a new project's {@linkplain #SEED seed}, which records no contract. */
  public static boolean isSeed(String text) {
    try {
      return isSeed(Json.parse(text));
    } catch (IllegalArgumentException notJson) {
      return false;
    }
  }

  private static boolean isSeed(Object tree) {
    return tree instanceof java.util.Map<?, ?> m && m.get("seed") instanceof String
        && !m.containsKey("digest") && !m.containsKey("tools");
  }

  /** Reads {@code file} (UTF-8) with {@link #read(String)}. */
  public static Contract read(Path file) throws IOException {
    return read(Files.readString(file, StandardCharsets.UTF_8));
  }
}
