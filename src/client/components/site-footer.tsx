// The footer (decision 0092 'Template leftovers replaced'): FAQ, Contact Us, Privacy Policy and Terms lead to
// the operator's pages (pages/site-page.tsx), and the copyright shows the current year.
import { Link } from 'wouter';
import { Static } from './static-html';

export const FOOTER_LINKS = [
  { href: '/faq', label: 'FAQ' },
  { href: '/contact', label: 'Contact Us' },
  { href: '/privacy', label: 'Privacy Policy' },
  { href: '/terms', label: 'Terms' },
] as const;

export function SiteFooter({ className = '' }: { className?: string }) {
  return (
    // Nothing here runs on a first screen: its links are routed by Static (decision 0078).
    <Static as="footer" className={`border-t border-slate-200 py-6 text-center text-sm text-slate-600 ${className}`}>
      <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
        {FOOTER_LINKS.map((l) => (
          <Link key={l.href} href={l.href} className="hover:text-slate-900 hover:underline">
            {l.label}
          </Link>
        ))}
      </nav>
      <p className="mt-3">© {new Date().getFullYear()} Social Media Toolkit. All rights reserved.</p>
    </Static>
  );
}
