package dev.mcpfusion.core.guard;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.spi.CompletionDescriptor;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The limits of one action — or of one prompt, resource or completion, resolved the same way —
 * computed once when the server is built (and when a lockfile is written): per field, the
 * method's {@code @Limits}, else the class's (the router's), else the server-wide
 * {@link CallLimits}; {@code -1} when no level sets it. A queue without a concurrency limit means
 * nothing, and a concurrency limit without a queue has none (0).
 *
 * @param maxConcurrent calls running at once, or -1
 * @param queue calls waiting for a slot (0 or more when {@code maxConcurrent} is set), or -1
 * @param timeoutMs the deadline in milliseconds, or -1
 * @param maxEgressBytes the reply byte cap, or -1
 * @param gateScope where {@code maxConcurrent} was declared ({@code "server"}, {@code "router"} or
 *     {@code "method"}), or {@code null}: the actions that share a declaration share its gate
 */
public record ActionLimits(int maxConcurrent, int queue, long timeoutMs, int maxEgressBytes,
    String gateScope) {
  /** The smallest byte cap: every framework error envelope fits in it. */
  public static final int MIN_EGRESS_BYTES = 1024;

  /** No limit at all. */
  public static final ActionLimits NONE = new ActionLimits(-1, -1, -1, -1, null);

  /** Whether any limit applies. */
  public boolean any() {
    return maxConcurrent > 0 || timeoutMs > 0 || maxEgressBytes > 0;
  }

  /**
   * Resolves the limits of {@code method} in {@code routerType} under {@code server}.
   *
   * @param where how errors name the action ({@code BillingTools.listInvoices})
   * @param problems receives each invalid {@code @Limits} value once (the caller words it)
   * @param method the action method, or {@code null} when it cannot be found
   */
  public static ActionLimits resolve(CallLimits server, Class<?> routerType, Method method,
      String where, List<Invalid> problems) {
    Limits onRouter = routerType == null ? null : routerType.getAnnotation(Limits.class);
    Limits onMethod = method == null ? null : method.getAnnotation(Limits.class);
    check(onRouter, routerType == null ? where : routerType.getSimpleName(), problems);
    check(onMethod, where, problems);
    CallLimits s = server == null ? CallLimits.none() : server;

    int maxConcurrent = -1;
    String scope = null;
    if (onMethod != null && onMethod.maxConcurrent() > 0) {
      maxConcurrent = onMethod.maxConcurrent();
      scope = "method";
    } else if (onRouter != null && onRouter.maxConcurrent() > 0) {
      maxConcurrent = onRouter.maxConcurrent();
      scope = "router";
    } else if (s.maxConcurrent() > 0) {
      maxConcurrent = s.maxConcurrent();
      scope = "server";
    }
    int queue = -1;
    if (maxConcurrent > 0) {
      queue = (int) pick(onMethod == null ? -1 : onMethod.queue(),
          onRouter == null ? -1 : onRouter.queue(), s.queue());
      queue = Math.max(0, queue);
    }
    long timeout = pick(onMethod == null ? -1 : onMethod.timeoutMs(),
        onRouter == null ? -1 : onRouter.timeoutMs(), s.timeoutMs());
    int egress = (int) pick(onMethod == null ? -1 : onMethod.maxEgressBytes(),
        onRouter == null ? -1 : onRouter.maxEgressBytes(), s.maxEgressBytes());
    return new ActionLimits(maxConcurrent, queue, timeout, egress, scope);
  }

  /**
   * The limits of prompt {@code prompt} of {@code features} under {@code server}: its method's
   * {@code @Limits}, else its class's, else the server's, as for an action.
   */
  public static ActionLimits ofPrompt(CallLimits server, FeaturesDescriptor features,
      PromptDescriptor prompt, List<Invalid> problems) {
    Class<?> type = features.type();
    Method method = featureMethod(type, prompt.methodName(), Prompt.class,
        m -> m.getAnnotation(Prompt.class).name().equals(prompt.name()));
    if (method == null) {
      method = featureMethod(type, prompt.methodName(), Prompt.class,
          m -> m.getAnnotation(Prompt.class).name().isEmpty());
    }
    return resolve(server, type, method, where(type, prompt.methodName()), problems);
  }

  /** The limits of resource (or template) {@code resource} of {@code features}, as for a prompt. */
  public static ActionLimits ofResource(CallLimits server, FeaturesDescriptor features,
      ResourceDescriptor resource, List<Invalid> problems) {
    Class<?> type = features.type();
    Method method = featureMethod(type, resource.methodName(), Resource.class,
        m -> m.getAnnotation(Resource.class).uri().equals(resource.uri()));
    return resolve(server, type, method, where(type, resource.methodName()), problems);
  }

  /** The limits of completion {@code completion} of {@code features}, as for a prompt. */
  public static ActionLimits ofCompletion(CallLimits server, FeaturesDescriptor features,
      CompletionDescriptor completion, List<Invalid> problems) {
    Class<?> type = features.type();
    Method method = featureMethod(type, completion.methodName(), Complete.class, m -> {
      Complete c = m.getAnnotation(Complete.class);
      return c.argument().equals(completion.argument()) && c.prompt().equals(completion.prompt())
          && c.resource().equals(completion.resource());
    });
    return resolve(server, type, method, where(type, completion.methodName()), problems);
  }

  private static String where(Class<?> type, String methodName) {
    return (type == null ? "?" : type.getSimpleName()) + "." + methodName;
  }

  /**
   * The method a prompt, resource or completion descriptor names, for its {@code @Limits}: the
   * method of {@code type} called {@code name} that carries {@code marker} and that {@code which}
   * accepts (overloads are told apart by the marker's values); {@code null} when none does (the
   * method-level {@code @Limits} is then not read).
   */
  private static Method featureMethod(Class<?> type, String name,
      Class<? extends Annotation> marker, Predicate<Method> which) {
    if (type == null || name == null) {
      return null;
    }
    try {
      for (Method m : type.getDeclaredMethods()) {
        if (m.getName().equals(name) && m.isAnnotationPresent(marker) && which.test(m)) {
          return m;
        }
      }
    } catch (SecurityException | LinkageError e) {
      return null;
    }
    return null;
  }

  private static long pick(long method, long router, long server) {
    if (method >= 0) {
      return method;
    }
    return router >= 0 ? router : server;
  }

  private static void check(Limits limits, String where, List<Invalid> problems) {
    if (limits == null) {
      return;
    }
    bound(where, "maxConcurrent", limits.maxConcurrent(), 1, problems);
    bound(where, "queue", limits.queue(), 0, problems);
    bound(where, "timeoutMs", limits.timeoutMs(), 1, problems);
    bound(where, "maxEgressBytes", limits.maxEgressBytes(), MIN_EGRESS_BYTES, problems);
  }

  private static void bound(String where, String name, long value, long min, List<Invalid> problems) {
    if (value != -1 && value < min) {
      Invalid invalid = new Invalid(where, name, value, min);
      if (!problems.contains(invalid)) {
        problems.add(invalid); // a router's annotation is resolved once per action
      }
    }
  }

  /**
   * One {@code @Limits} value below its minimum: {@code where} names the router or action,
   * {@code name} the attribute.
   */
  public record Invalid(String where, String name, long value, long min) {}

  /**
   * The limits as the lockfile records them, by name (only those set): {@code maxConcurrent},
   * {@code queue}, {@code timeoutMs}, {@code maxEgressBytes}; for each a lower value is tighter.
   */
  public Map<String, Long> named() {
    Map<String, Long> named = new LinkedHashMap<>();
    if (maxConcurrent > 0) {
      named.put("maxConcurrent", (long) maxConcurrent);
      named.put("queue", (long) queue);
    }
    if (timeoutMs > 0) {
      named.put("timeoutMs", timeoutMs);
    }
    if (maxEgressBytes > 0) {
      named.put("maxEgressBytes", (long) maxEgressBytes);
    }
    return named;
  }
}
