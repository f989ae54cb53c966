package dev.mcpfusion.core;

/** How routers and actions become MCP tools. */
public enum Exposition {
  /** One tool per action, named {@code <router><separator><action>} (default). */
  FLAT,
  /** One tool per router, with an {@code action} discriminator. */
  GROUPED
}
