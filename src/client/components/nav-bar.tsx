// The sticky app bar of decision 0092 'Navigation bar'.
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Lock, LogOut, Menu, X } from 'lucide-react';
import { Logo } from './logo';
import { SCROLL_THRESHOLD_PX } from '@shared/constants';
import { useSubscriptionStatus } from '../hooks/use-subscription';
import { Tooltip } from './ui/tooltip';
import { NAV_ITEMS, type NavItem } from './nav-items';
import { PlanMenu } from './plan-menu';

/** Desktop row: hidden while scrolling down, shown on scroll up or near the top. */
function useShowOnScrollUp(): boolean {
  const [visible, setVisible] = useState(true);
  const last = useRef(0);
  useEffect(() => {
    const onScroll = () => {
      const y = window.scrollY;
      if (y <= SCROLL_THRESHOLD_PX) setVisible(true);
      else if (y > last.current) setVisible(false);
      else if (y < last.current) setVisible(true);
      last.current = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return visible;
}

function NavEntry({
  item,
  locked,
  loading,
  mobile,
  onNavigate,
}: {
  item: NavItem;
  locked: boolean;
  loading: boolean;
  mobile: boolean;
  onNavigate?: () => void;
}) {
  const [location] = useLocation();
  const active = location === item.path;
  const base = mobile
    ? 'flex items-center justify-center gap-1 rounded-md border px-3 py-2 text-sm'
    : 'flex items-center gap-1 rounded-md px-3 py-1.5 text-sm';
  if (item.premium && loading) {
    if (!mobile) return null; // hidden on desktop while the plan is unknown
    return (
      <button type="button" disabled className={`${base} cursor-not-allowed border-slate-200 text-slate-400`}>
        {item.label}
      </button>
    );
  }
  if (item.premium && locked) {
    return (
      <Tooltip content={`${item.label} (Pro only)`}>
        <a
          href={item.path}
          aria-disabled="true"
          data-locked="true"
          onClick={(e) => e.preventDefault()}
          className={`${base} cursor-not-allowed border-slate-200 text-slate-400`}
        >
          <Lock className="h-3.5 w-3.5" aria-label="locked" />
          {item.label}
        </a>
      </Tooltip>
    );
  }
  return (
    <Link
      href={item.path}
      onClick={onNavigate}
      className={
        `${base} ` +
        `${active ? 'border-violet-300 bg-violet-50 font-semibold text-violet-700' : 'border-slate-200 text-slate-700 hover:bg-slate-100'}`
      }
    >
      {item.label}
    </Link>
  );
}

export function NavBar() {
  const status = useSubscriptionStatus();
  const showRow = useShowOnScrollUp();
  const [menuOpen, setMenuOpen] = useState(false);
  const loading = status.isLoading;
  const locked = !status.data?.isProUser;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur" data-testid="nav-bar">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-3 sm:gap-3 sm:px-4">
        <Logo />
        <div className="flex flex-none items-center gap-2 sm:gap-3">
          <PlanMenu />
          <form method="post" action="/api/logout" className="hidden md:flex">
            <button
              type="submit"
              className="flex items-center gap-1 rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
            >
              <LogOut className="h-4 w-4" aria-hidden /> Logout
            </button>
          </form>
          <button
            type="button"
            className="rounded-md border border-slate-200 p-2 md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <X className="h-5 w-5" /> : <Menu className="h-5 w-5" />}
          </button>
        </div>
      </div>
      {/* Hidden on phones and heavy with tooltips: its own boundary, hydrated in a later, lower
          priority pass on a first screen (decision 0078). */}
      <Suspense fallback={null}>
        <nav
          data-testid="desktop-nav"
          data-visible={showRow}
          aria-label="Main"
          className={`mx-auto hidden max-w-7xl flex-wrap gap-1 overflow-hidden px-4 transition-all duration-200
          md:flex ${showRow ? 'max-h-20 pb-2 opacity-100' : 'max-h-0 pb-0 opacity-0'}`}
        >
          {NAV_ITEMS.map((item) => (
            <NavEntry key={item.path} item={item} locked={locked} loading={loading} mobile={false} />
          ))}
        </nav>
      </Suspense>
      {menuOpen && (
        <nav
          data-testid="mobile-nav"
          aria-label="Main mobile"
          className="grid grid-cols-2 gap-2 border-t border-slate-200 p-3 md:hidden"
        >
          {NAV_ITEMS.map((item) => (
            <NavEntry
              key={item.path}
              item={item}
              locked={locked}
              loading={loading}
              mobile
              onNavigate={() => setMenuOpen(false)}
            />
          ))}
          <form method="post" action="/api/logout" className="col-span-2">
            <button
              type="submit"
              className="flex w-full items-center justify-center gap-1 rounded-md border border-slate-200 px-3 py-2 text-sm text-slate-700"
            >
              <LogOut className="h-4 w-4" aria-hidden /> Logout
            </button>
          </form>
        </nav>
      )}
    </header>
  );
}
