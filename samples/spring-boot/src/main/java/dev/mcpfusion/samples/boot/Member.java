package dev.mcpfusion.samples.boot;

/** Who is calling: a library member id, or {@link #ANONYMOUS}. */
public record Member(String id) {
  /** A caller that sent no member id. */
  public static final Member ANONYMOUS = new Member("");

  /** Whether this caller named a member. */
  public boolean known() {
    return !id.isEmpty();
  }
}
