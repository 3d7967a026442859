// The built-in sign-in / create-account page (used when no OpenID provider is configured).
import { AuthForm } from '../components/auth-form';

const ERRORS: Record<string, string> = {
  cancelled: 'Sign-in was cancelled.',
  failed: 'Sign-in could not be completed. Please try again.',
  expired: 'Your sign-in attempt expired. Please try again.',
  provider_unavailable: 'The sign-in provider is not reachable right now. Please try again later.',
};

export default function SignInPage() {
  // The server renders this page only without a query (plugins/client-files.ts), hence no `window` there.
  const code = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('error');
  return (
    <main className="flex min-h-[70vh] items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <AuthForm
          initialError={code ? (ERRORS[code] ?? ERRORS.failed) : null}
          onSignedIn={() => {
            window.location.href = '/';
          }}
        />
      </div>
    </main>
  );
}
