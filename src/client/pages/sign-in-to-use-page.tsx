// Signed out on an app route (/subscription, /blog, /trends, …): say what the screen is for and
// sign in right here; after signing in the same screen opens (the address stays as it is).
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { APP_PATHS } from '@shared/client-paths';
import { AuthForm } from '../components/auth-form';

export default function SignInToUsePage() {
  const [location] = useLocation();
  const queryClient = useQueryClient();
  const name = APP_PATHS.find((a) => a.path === location)?.name ?? 'this page';
  return (
    <main className="flex min-h-[70vh] items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold text-slate-900" data-testid="sign-in-to-use">
          Sign in to use {name}
        </h1>
        <p className="mb-5 mt-1 text-sm text-slate-600">
          It is part of your account. New here? Creating one takes a minute and includes 6 free downloads.
        </p>
        <AuthForm headingLevel={2} onSignedIn={() => queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] })} />
      </div>
    </main>
  );
}
