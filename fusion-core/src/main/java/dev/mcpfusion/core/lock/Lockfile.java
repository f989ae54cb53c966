package dev.mcpfusion.core.lock;

import dev.mcpfusion.core.json.Json;
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
   * @throws IllegalArgumentException if the text is not a valid version-1 lockfile or a digest
   *     does not match (the message names the JSON path and the fix)
   */
  public static Contract read(String text) {
    Object tree;
    try {
      tree = Json.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mcpfusion.lock is not valid JSON (" + e.getMessage()
          + "); resolve the merge or regenerate it with the lock goal", e);
    }
    return Contract.fromTree(tree);
  }

  /** Reads {@code file} (UTF-8) with {@link #read(String)}. */
  public static Contract read(Path file) throws IOException {
    return read(Files.readString(file, StandardCharsets.UTF_8));
  }
}
