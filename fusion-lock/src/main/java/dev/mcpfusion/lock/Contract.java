package dev.mcpfusion.lock;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The canonical contract of a connector: every tool an agent can reach under a serving profile,
 * and every prompt and resource, computed from generated descriptors alone (no user instance is
 * needed or created). A connector without prompts or resources writes neither key, so its lockfile
 * reads as before they existed.
 *
 * @param profile the serving profile the tools are exposed under
 * @param tools the tools by exposed name
 * @param prompts the prompts by name
 * @param resources the resources and resource templates by URI
 * @param surfaces by router, the workflow states and tags of the routers that declare any (a
 *     connector without them writes no {@code surfaces} key)
 */
public record Contract(LockProfile profile, Map<String, ToolContract> tools,
    Map<String, PromptContract> prompts, Map<String, ResourceContract> resources,
    Map<String, SurfaceContract> surfaces) {

  /** The lockfile format this code writes and reads. */
  public static final int LOCKFILE_VERSION = 1;

  public Contract {
    tools = Collections.unmodifiableMap(new TreeMap<>(tools));
    prompts = Collections.unmodifiableMap(new TreeMap<>(prompts));
    resources = Collections.unmodifiableMap(new TreeMap<>(resources));
    surfaces = Collections.unmodifiableMap(new TreeMap<>(surfaces));
  }

  /** A contract without workflow states or tags. */
  public Contract(LockProfile profile, Map<String, ToolContract> tools,
      Map<String, PromptContract> prompts, Map<String, ResourceContract> resources) {
    this(profile, tools, prompts, resources, Map.of());
  }

  /** A contract of tools only. */
  public Contract(LockProfile profile, Map<String, ToolContract> tools) {
    this(profile, tools, Map.of(), Map.of());
  }

  /**
   * The contract of {@code routers} exposed under {@code profile}, with the prompts and resources
   * of {@code features}.
   *
   * @throws IllegalArgumentException if two routers expose a tool of the same name, or two classes
   *     declare one prompt name or resource URI
   */
  public static Contract of(List<RouterDescriptor> routers, List<FeaturesDescriptor> features,
      LockProfile profile) {
    Contract tools = of(routers, profile);
    Map<String, PromptContract> prompts = new TreeMap<>();
    Map<String, ResourceContract> resources = new TreeMap<>();
    for (FeaturesDescriptor f : features) {
      for (PromptDescriptor p : f.prompts()) {
        if (prompts.putIfAbsent(p.name(), PromptContract.of(f, p, profile)) != null) {
          throw new IllegalArgumentException("Two classes declare a prompt named \"" + p.name()
              + "\"; rename one with @Prompt(name = ...)");
        }
      }
      for (ResourceDescriptor r : f.resources()) {
        if (resources.putIfAbsent(r.uri(), ResourceContract.of(f, r, profile)) != null) {
          throw new IllegalArgumentException("Two classes declare the resource \"" + r.uri()
              + "\"; give each its own URI");
        }
      }
    }
    return new Contract(profile, tools.tools(), prompts, resources, tools.surfaces());
  }

  /**
   * The contract of {@code routers} exposed under {@code profile}.
   *
   * @throws IllegalArgumentException if two routers expose a tool of the same name
   */
  public static Contract of(List<RouterDescriptor> routers, LockProfile profile) {
    Map<String, ToolContract> tools = new TreeMap<>();
    Map<String, SurfaceContract> surfaces = new TreeMap<>();
    for (RouterDescriptor router : routers) {
      SurfaceContract surface = SurfaceContract.of(router);
      if (surface != null) {
        surfaces.put(router.name(), surface);
      }
      if (profile.exposition() == Exposition.GROUPED) {
        Map<String, ActionContract> actions = new LinkedHashMap<>();
        for (ActionDescriptor action : router.actions()) {
          actions.put(action.name(), ActionContract.of(router, action, profile));
        }
        put(tools, new ToolContract(router.name(), router.name(), router.description(), actions));
      } else {
        for (ActionDescriptor action : router.actions()) {
          String name = router.flatToolName(profile.separator(), action.name());
          put(tools, new ToolContract(name, router.name(), null,
              Map.of(action.name(), ActionContract.of(router, action, profile))));
        }
      }
    }
    return new Contract(profile, tools, Map.of(), Map.of(), surfaces);
  }

  private static void put(Map<String, ToolContract> tools, ToolContract tool) {
    if (tools.putIfAbsent(tool.name(), tool) != null) {
      throw new IllegalArgumentException("Two routers expose a tool named \"" + tool.name()
          + "\"; rename one router or action");
    }
  }

  /** {@code sha256:} of the whole contract: lockfile version, profile and every tool with its digest. */
  public String digest() {
    return Canonical.digest(content());
  }

  private Map<String, Object> content() {
    Map<String, Object> profileTree = new TreeMap<>();
    profileTree.put("exposition", profile.exposition().name());
    profileTree.put("middleware", profile.middleware());
    profileTree.put("separator", profile.separator());
    Map<String, Long> limits = limits(profile.limits());
    if (!limits.isEmpty()) {
      profileTree.put("limits", limits); // absent when none is set, as in lockfiles before limits
    }
    RedactionContract redaction = RedactionContract.of(profile.redaction());
    if (redaction != null) {
      profileTree.put("redaction", redaction.toTree());
    }
    Map<String, Object> toolTrees = new TreeMap<>();
    tools.forEach((k, v) -> toolTrees.put(k, v.toTree()));
    Map<String, Object> tree = new TreeMap<>();
    tree.put("lockfileVersion", LOCKFILE_VERSION);
    tree.put("profile", profileTree);
    tree.put("tools", toolTrees);
    if (!prompts.isEmpty()) {
      Map<String, Object> promptTrees = new TreeMap<>();
      prompts.forEach((k, v) -> promptTrees.put(k, v.toTree()));
      tree.put("prompts", promptTrees);
    }
    if (!resources.isEmpty()) {
      Map<String, Object> resourceTrees = new TreeMap<>();
      resources.forEach((k, v) -> resourceTrees.put(k, v.toTree()));
      tree.put("resources", resourceTrees);
    }
    if (!surfaces.isEmpty()) {
      Map<String, Object> surfaceTrees = new TreeMap<>();
      surfaces.forEach((k, v) -> surfaceTrees.put(k, v.toTree()));
      tree.put("surfaces", surfaceTrees);
    }
    return tree;
  }

  /** The lockfile as a plain tree (sorted maps), server digest included. */
  Map<String, Object> toTree() {
    Map<String, Object> tree = content();
    tree.put("digest", digest());
    return tree;
  }

  /** The server-wide limits that are set, by name. */
  private static Map<String, Long> limits(CallLimits limits) {
    Map<String, Long> named = new TreeMap<>();
    if (limits.maxConcurrent() != -1) {
      named.put("maxConcurrent", (long) limits.maxConcurrent());
    }
    if (limits.queue() != -1) {
      named.put("queue", (long) limits.queue());
    }
    if (limits.timeoutMs() != -1) {
      named.put("timeoutMs", limits.timeoutMs());
    }
    if (limits.maxEgressBytes() != -1) {
      named.put("maxEgressBytes", (long) limits.maxEgressBytes());
    }
    return named;
  }

  static Contract fromTree(Object root) {
    TreeReader r = new TreeReader(root, "$");
    long version = r.integer("lockfileVersion");
    if (version != LOCKFILE_VERSION) {
      throw new IllegalArgumentException("mcpfusion.lock has lockfileVersion " + version
          + " but this build reads version " + LOCKFILE_VERSION + "; regenerate it with the lock goal");
    }
    TreeReader p = r.object("profile");
    Map<String, Long> limits = p.has("limits") ? p.longMap("limits") : Map.of();
    LockProfile profile = new LockProfile(p.enumValue("exposition", Exposition.class),
        p.string("separator"), p.strings("middleware"),
        p.has("redaction") ? RedactionContract.fromTree(p.object("redaction")).toRedaction() : null,
        new CallLimits(
            limits.getOrDefault("maxConcurrent", -1L).intValue(),
            limits.getOrDefault("queue", -1L).intValue(),
            limits.getOrDefault("timeoutMs", -1L),
            limits.getOrDefault("maxEgressBytes", -1L).intValue()));
    Map<String, ToolContract> tools = new TreeMap<>();
    r.objects("tools").forEach((k, v) -> tools.put(k, ToolContract.fromTree(k, v)));
    Map<String, PromptContract> prompts = new TreeMap<>();
    if (r.has("prompts")) {
      r.objects("prompts").forEach((k, v) -> prompts.put(k, PromptContract.fromTree(k, v)));
    }
    Map<String, ResourceContract> resources = new TreeMap<>();
    if (r.has("resources")) {
      r.objects("resources").forEach((k, v) -> resources.put(k, ResourceContract.fromTree(k, v)));
    }
    Map<String, SurfaceContract> surfaces = new TreeMap<>();
    if (r.has("surfaces")) {
      r.objects("surfaces").forEach((k, v) -> surfaces.put(k, SurfaceContract.fromTree(v)));
    }
    Contract contract = new Contract(profile, tools, prompts, resources, surfaces);
    if (!r.string("digest").equals(contract.digest())) {
      throw new IllegalArgumentException("mcpfusion.lock: the server digest does not match its"
          + " content (edited by hand or merged?); run the lock goal again");
    }
    return contract;
  }
}
