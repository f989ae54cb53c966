package dev.mcpfusion.core.server;

import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.RouterDescriptor;

/**
 * A router as the server bound it at {@code build()}.
 *
 * @param router the generated dispatcher
 * @param descriptor its descriptor (read once)
 * @param target the user's router instance when it was registered as such, else {@code null}
 *     (registered through {@code X_Fusion.bind(...)}); needed only for Bean Validation
 */
public record BoundRouter(GeneratedRouter router, RouterDescriptor descriptor, Object target) {

  /** The router name. */
  public String name() {
    return descriptor.name();
  }
}
