// A screen loaded on demand that can also be loaded ahead: once `load()` has resolved it renders
// directly, with no Suspense in the way. A first screen sent ready (decision 0074) loads its
// screens before hydrating, so React hydrates it in one pass: no boundary left waiting for a chunk,
// where an early click would be lost. The server render does the same after its first pass.
import { lazy, useState, type ComponentType } from 'react';

export interface LazyScreen<P extends object = object> {
  (props: P): React.ReactNode;
  load(): Promise<void>;
}

export function lazyScreen<P extends object = object>(
  factory: () => Promise<{ default: ComponentType<P> }>,
): LazyScreen<P> {
  let loaded: ComponentType<P> | undefined;
  const load = () =>
    factory().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen, at module level (routes.tsx)
  const Screen = (props: P) => {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount it.
    const [Component] = useState(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
  Screen.load = () => load().then(() => undefined);
  return Screen as LazyScreen<P>;
}
