package dev.mcpfusion.wire;

import java.util.List;

/**
 * The TOON data block of a collection ({@code @Presenter(format = TOON)}), written by the optional
 * {@code dev.toonformat:jtoon} library. Only {@link JToonEncoder} names jtoon's classes, and it is
 * loaded on the first TOON reply, so a server without TOON presenters runs without the jar; a server
 * with one is refused at build time when the jar is missing ({@link #available()}).
 */
public final class Toon {
  /** The jtoon class the encoder calls; its presence means the library is usable. */
  static final String ENCODER_CLASS = "dev.toonformat.jtoon.encoder.ValueEncoder";

  private static final boolean AVAILABLE = probe();

  private Toon() {}

  /** Whether jtoon is on the class path (or module path) of fusion-core. */
  public static boolean available() {
    return AVAILABLE;
  }

  /**
   * The TOON text of a list of plain JSON trees (the views' {@code toTree}): a root array, a table
   * ({@code [n]{a,b}:} then one line per item) when the items are uniform objects of scalars.
   *
   * @throws IllegalStateException if jtoon is missing (the builder refuses such a server first)
   */
  public static String table(List<?> items) {
    if (!AVAILABLE) {
      throw new IllegalStateException("@Presenter(format = TOON) needs dev.toonformat:jtoon on the"
          + " class path");
    }
    return JToonEncoder.encode(items, false);
  }

  /**
   * The TOON text of a plain JSON tree whose tables separate cells with {@code |} rather than
   * {@code ,}, so prose with commas needs no quotes (the GROUPED description's action table).
   *
   * @throws IllegalStateException if jtoon is missing (the builder refuses such a server first)
   */
  public static String pipeTable(Object tree) {
    if (!AVAILABLE) {
      throw new IllegalStateException("TOON descriptions need dev.toonformat:jtoon on the class path");
    }
    return JToonEncoder.encode(tree, true);
  }

  private static boolean probe() {
    try {
      Class.forName(ENCODER_CLASS, false, Toon.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
