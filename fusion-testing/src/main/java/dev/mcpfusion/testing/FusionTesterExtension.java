package dev.mcpfusion.testing;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands each test method a fresh {@link FusionTester} parameter and closes
 * it after the test.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FusionTesterExtension fusion = FusionTesterExtension.of(() ->
 *     FusionTester.of(new BillingTools(InvoiceStore.sample())).context(new Tenant("t_777")));
 *
 * @Test
 * void voidingInvalidatesTheBillingCache(FusionTester tester) {
 *   assertThat(tester.call("billing", "void_invoice", Map.of("id", "INV-0007")))
 *       .isSuccess().invalidates("billing.*");
 * }
 * }</pre>
 */
public final class FusionTesterExtension implements ParameterResolver, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FusionTesterExtension.class);

  private final Supplier<FusionTester> factory;

  private FusionTesterExtension(Supplier<FusionTester> factory) {
    this.factory = factory;
  }

  /** An extension that creates each test's tester with {@code factory}. */
  public static FusionTesterExtension of(Supplier<FusionTester> factory) {
    return new FusionTesterExtension(Objects.requireNonNull(factory, "factory"));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == FusionTester.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return store(context).getOrComputeIfAbsent(key(context), k -> {
      FusionTester tester = factory.get();
      if (tester == null) {
        throw new IllegalStateException("The FusionTesterExtension factory returned null");
      }
      return tester;
    }, FusionTester.class);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    FusionTester tester = store(context).remove(key(context), FusionTester.class);
    if (tester != null) {
      tester.close();
    }
  }

  private static ExtensionContext.Store store(ExtensionContext context) {
    return context.getStore(NAMESPACE);
  }

  private static String key(ExtensionContext context) {
    return context.getUniqueId();
  }
}
