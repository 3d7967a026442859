// What a lazily loaded screen shows while it loads. Its own module, so the app shell and the
// signed-in shell (which app.tsx loads) do not import each other.
import { Spinner } from './ui/spinner';

export function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}
