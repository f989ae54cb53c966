package dev.mcpfusion.core.redact;

import dev.mcpfusion.core.spi.PresenterBinding;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Renders a view or model that a handler put into {@code FusionError.detail} through its presenter,
 * so an error carries exactly what a result would: the presenters the server registers, by view
 * type and by model type. Built once per server; thread-safe.
 */
public final class DetailPresenter {
  private final Map<Class<?>, PresenterBinding<?, ?>> byView = new HashMap<>();
  private final Map<Class<?>, PresenterBinding<?, ?>> byModel = new HashMap<>();
  /**
   * Views no action presents directly (a nested view, a view made for an error): their generated
   * {@code V_Presenter.INSTANCE}, looked up once per class.
   */
  private static final ClassValue<PresenterBinding<?, ?>> GENERATED = new ClassValue<>() {
    @Override
    protected PresenterBinding<?, ?> computeValue(Class<?> view) {
      if (!view.isAnnotationPresent(dev.mcpfusion.annotation.Presenter.class)) {
        return null;
      }
      String pkg = view.getPackageName();
      String local = pkg.isEmpty() ? view.getName() : view.getName().substring(pkg.length() + 1);
      String name = (pkg.isEmpty() ? "" : pkg + ".") + local.replace('$', '_') + "_Presenter";
      try {
        Object instance = Class.forName(name, true, view.getClassLoader())
            .getField("INSTANCE").get(null);
        return instance instanceof PresenterBinding<?, ?> binding && binding.viewType() == view
            ? binding : null;
      } catch (ReflectiveOperationException | LinkageError e) {
        return null;
      }
    }
  };

  /** Models with more than one presenter: which one an error should use is not known. */
  private final Map<Class<?>, String> ambiguous = new HashMap<>();

  /** A renderer over the presenters of the server's actions. */
  public DetailPresenter(Collection<PresenterBinding<?, ?>> presenters) {
    for (PresenterBinding<?, ?> p : presenters) {
      byView.put(p.viewType(), p);
      PresenterBinding<?, ?> earlier = byModel.putIfAbsent(p.modelType(), p);
      if (earlier != null && earlier.viewType() != p.viewType()) {
        ambiguous.put(p.modelType(), earlier.viewType().getSimpleName() + " and "
            + p.viewType().getSimpleName());
      }
    }
  }

  /**
   * The plain JSON tree of {@code value} as its presenter shows it: a view through its own
   * presenter, a model through {@code preferred} (the presenter of the action that failed) when it
   * presents that model, else through the one presenter the server registers for the model.
   *
   * @throws IllegalStateException naming the type and the fix when no presenter (or more than one,
   *     for a model) is registered for it
   */
  @SuppressWarnings("unchecked")
  public Object present(Object value, PresenterBinding<?, ?> preferred) {
    PresenterBinding<Object, Object> view = (PresenterBinding<Object, Object>) byView.get(value.getClass());
    if (view == null) {
      view = (PresenterBinding<Object, Object>) GENERATED.get(value.getClass());
    }
    if (view != null) {
      return view.toTree(value);
    }
    if (preferred != null && preferred.modelType().isInstance(value)) {
      PresenterBinding<Object, Object> own = (PresenterBinding<Object, Object>) preferred;
      return own.toTree(own.fromModel(value));
    }
    for (Class<?> c = value.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      String both = ambiguous.get(c);
      if (both != null) {
        throw new IllegalStateException("FusionError.detail holds a " + c.getName() + ", which both "
            + both + " present; pass the view you mean instead of the model");
      }
      PresenterBinding<Object, Object> model = (PresenterBinding<Object, Object>) byModel.get(c);
      if (model != null) {
        return model.toTree(model.fromModel(value));
      }
    }
    throw new IllegalStateException("FusionError.detail holds a " + value.getClass().getName()
        + ", but no action of this server presents it; pass its view, or the one field you mean");
  }
}
