import { AlertCircle } from 'lucide-react';
import { Link } from 'wouter';
import { usePlatforms } from '../hooks/use-platforms';

// The 404 title, and what to do next in place of the prototype's note to its developer (decision 0092 '404 page').
// The server answers these paths with HTTP 404.
export function NotFoundPage() {
  const { names } = usePlatforms();
  return (
    <main className="flex min-h-[60vh] w-full items-center justify-center px-4">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <div className="mb-4 flex gap-2">
          <AlertCircle className="h-8 w-8 text-slate-400" aria-hidden />
          <h1 className="text-2xl font-bold text-slate-900">404 Page Not Found</h1>
        </div>
        <p className="mt-4 text-sm text-slate-600">
          There is no page at this address. The link may be mistyped or out of date.
        </p>
        <div className="mt-5 flex flex-wrap items-center gap-4">
          <Link
            href="/"
            className="inline-flex rounded-md bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-700"
          >
            Go to the home page
          </Link>
          <Link href="/#paste-title" className="text-sm font-medium text-violet-700 underline hover:text-violet-900">
            Download a {names} video
          </Link>
        </div>
      </div>
    </main>
  );
}
