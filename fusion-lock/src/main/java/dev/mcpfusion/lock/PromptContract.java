package dev.mcpfusion.lock;

import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.PromptDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One prompt as the client sees it ({@code prompts/list}) and what it lets out.
 *
 * @param name the prompt name
 * @param router the router of its class ({@code ""} when the class is not a router)
 * @param title the MCP title ({@code ""} for none)
 * @param description the description
 * @param arguments whether each argument is required, by name
 * @param argumentDescriptions each argument's description, by name
 * @param presenter the presenter of its data, or {@code null}
 * @param limits its limits as the server resolves them ({@code @Limits} on the method, else on
 *     the class, else the profile's server-wide ones), by name, as an action's: {@code maxConcurrent},
 *     {@code queue}, {@code timeoutMs}, {@code maxEgressBytes}, those set only
 * @param completionLimits the limits of each argument's {@code @Complete} method, by argument
 *     (only those with a limit)
 * @param icons its icons, in order (none for most prompts)
 * @param scopes the OAuth scopes a caller needs to see and get it ({@code @Scopes} of its class and
 *     method), sorted; empty when none
 */
public record PromptContract(String name, String router, String title, String description,
    Map<String, Boolean> arguments, Map<String, String> argumentDescriptions,
    PresenterContract presenter, Map<String, Long> limits,
    Map<String, Map<String, Long>> completionLimits, List<IconContract> icons, List<String> scopes) {

  public PromptContract {
    arguments = Collections.unmodifiableMap(new TreeMap<>(arguments));
    argumentDescriptions = Collections.unmodifiableMap(new TreeMap<>(argumentDescriptions));
    limits = Collections.unmodifiableMap(new TreeMap<>(limits));
    completionLimits = FeatureLimits.copy(completionLimits);
    icons = List.copyOf(icons);
    scopes = scopes == null ? List.of() : List.copyOf(new TreeSet<>(scopes));
  }

  /** A prompt that requires no scope. */
  public PromptContract(String name, String router, String title, String description,
      Map<String, Boolean> arguments, Map<String, String> argumentDescriptions,
      PresenterContract presenter, Map<String, Long> limits,
      Map<String, Map<String, Long>> completionLimits, List<IconContract> icons) {
    this(name, router, title, description, arguments, argumentDescriptions, presenter, limits,
        completionLimits, icons, List.of());
  }

  /** A prompt without icons. */
  public PromptContract(String name, String router, String title, String description,
      Map<String, Boolean> arguments, Map<String, String> argumentDescriptions,
      PresenterContract presenter, Map<String, Long> limits,
      Map<String, Map<String, Long>> completionLimits) {
    this(name, router, title, description, arguments, argumentDescriptions, presenter, limits,
        completionLimits, List.of());
  }

  /** A prompt without limits. */
  public PromptContract(String name, String router, String title, String description,
      Map<String, Boolean> arguments, Map<String, String> argumentDescriptions,
      PresenterContract presenter) {
    this(name, router, title, description, arguments, argumentDescriptions, presenter, Map.of(),
        Map.of());
  }

  static PromptContract of(FeaturesDescriptor f, PromptDescriptor d, LockProfile profile) {
    Map<String, Boolean> arguments = new LinkedHashMap<>();
    Map<String, String> descriptions = new LinkedHashMap<>();
    for (PromptArgument a : d.arguments()) {
      arguments.put(a.name(), a.required());
      descriptions.put(a.name(), a.description());
    }
    return new PromptContract(d.name(), f.router(), d.title(), d.description(), arguments,
        descriptions, d.presenter() == null ? null : PresenterContract.of(d.presenter()),
        ActionLimits.ofPrompt(profile.limits(), f, d, new ArrayList<>()).named(),
        FeatureLimits.completions(f, d.name(), null, profile), IconContract.of(d.icons()), d.scopes());
  }

  /** {@code sha256:} of this prompt's canonical JSON (everything but the digest itself). */
  public String digest() {
    return Canonical.digest(content());
  }

  private Map<String, Object> content() {
    Map<String, Object> tree = new TreeMap<>();
    Map<String, Object> args = new TreeMap<>();
    arguments.forEach((k, v) -> {
      Map<String, Object> a = new TreeMap<>();
      a.put("description", argumentDescriptions.getOrDefault(k, ""));
      a.put("required", v);
      args.put(k, a);
    });
    tree.put("arguments", args);
    // Only when set: a prompt without limits reads (and digests) as before limits were recorded.
    if (!completionLimits.isEmpty()) {
      tree.put("completionLimits", completionLimits);
    }
    tree.put("description", description);
    // Only when set, as limits: a prompt without icons keeps its digest.
    if (!icons.isEmpty()) {
      tree.put("icons", IconContract.toTrees(icons));
    }
    if (!limits.isEmpty()) {
      tree.put("limits", limits);
    }
    if (presenter != null) {
      tree.put("presenter", presenter.toTree());
    }
    tree.put("router", router);
    // Only when required, as on actions: a prompt without scopes keeps its digest.
    if (!scopes.isEmpty()) {
      tree.put("scopes", scopes);
    }
    tree.put("title", title);
    return tree;
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = content();
    tree.put("digest", digest());
    return tree;
  }

  static PromptContract fromTree(String name, TreeReader r) {
    Map<String, Boolean> arguments = new TreeMap<>();
    Map<String, String> descriptions = new TreeMap<>();
    r.objects("arguments").forEach((k, v) -> {
      arguments.put(k, v.bool("required"));
      descriptions.put(k, v.string("description"));
    });
    PromptContract prompt = new PromptContract(name, r.string("router"), r.string("title"),
        r.string("description"), arguments, descriptions,
        r.has("presenter") ? PresenterContract.fromTree(r.object("presenter")) : null,
        r.has("limits") ? r.longMap("limits") : Map.of(), FeatureLimits.fromTree(r),
        IconContract.fromTree(r), r.has("scopes") ? r.strings("scopes") : List.of());
    if (!r.string("digest").equals(prompt.digest())) {
      throw new IllegalArgumentException("mcpfusion.lock: the digest of prompt \"" + name
          + "\" does not match its content (edited by hand or merged?); run the lock goal again");
    }
    return prompt;
  }
}
