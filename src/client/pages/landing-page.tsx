// Signed-out landing page: the downloader's paste box first (issue 22: a saved file in 3 actions),
// then the founding hero, six feature cards and closing call to action, and the footer. The copy claims
// nothing this instance cannot show (no count of users: decision 0092 'Landing page', 'Template leftovers replaced').
import { PasteFirst } from '../components/downloader/paste-first';
import { AudioLines, Captions, Download, Hash, Sparkles, TrendingUp } from 'lucide-react';
import { SiteFooter } from '../components/site-footer';
import { Static } from '../components/static-html';
import { usePlatforms } from '../hooks/use-platforms';

const FEATURES = [
  { icon: Download, title: 'HD Downloads', text: 'High-quality video downloads without watermarks.' },
  { icon: AudioLines, title: 'Audio Extraction', text: 'Extract audio from videos as MP3 for remixes.' },
  { icon: Captions, title: 'Auto Captions', text: 'Automatic captions and transcriptions with timestamps.' },
  { icon: Sparkles, title: 'Content Optimization', text: 'Optimize your captions for engagement on every platform.' },
  { icon: Hash, title: 'AI Hashtags', text: 'AI-powered hashtag suggestions for your niche.' },
  { icon: TrendingUp, title: 'Trends Analysis', text: 'Analysis of social media trends from real, dated sources.' },
];

export function LandingPage() {
  const { platforms } = usePlatforms();
  return (
    <>
      <main>
        <section
          aria-labelledby="paste-title"
          className="bg-gradient-to-b from-violet-50 to-white px-4 pb-10 pt-8 text-center sm:pt-12"
        >
          <h1 id="paste-title" className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            Download TikTok Videos Instantly
          </h1>
          <p className="mx-auto mb-6 mt-2 max-w-xl text-base text-slate-600">
            Paste a video link: see the video, then save it without a watermark.
          </p>
          <PasteFirst />
          {platforms.length > 0 && (
            <p data-testid="platforms-note" className="mt-3 text-sm text-slate-600">
              Links that work: {platforms.map((p) => p.name).join(', ')}.
            </p>
          )}
        </section>

        {/* Below the paste box nothing runs: the server's HTML is kept as it is (decision 0078). */}
        <Static as="section" className="mx-auto max-w-5xl px-4 pb-12 pt-10 text-center">
          <h2 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            Your Complete Toolkit for{' '}
            <span className="bg-gradient-to-r from-pink-500 to-violet-600 bg-clip-text text-transparent">
              Short-Form Video
            </span>
          </h2>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
            Download videos without watermarks, extract audio, caption automatically, find the right hashtags and follow
            what is trending, for creators who publish across multiple platforms.
          </p>
          <a
            href="/api/login"
            className={
              'mt-8 inline-flex items-center rounded-lg bg-violet-600 px-6 ' +
              'py-3 text-base font-semibold text-white shadow hover:bg-violet-700'
            }
          >
            Get Started - Sign In
          </a>
        </Static>

        <Static
          as="section"
          className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:grid-cols-2 lg:grid-cols-3"
          aria-label="Features"
        >
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <div
              key={title}
              className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
              data-testid="feature-card"
            >
              <span className="mb-4 inline-flex h-11 w-11 items-center justify-center rounded-lg bg-violet-100 text-violet-700">
                <Icon className="h-5 w-5" aria-hidden />
              </span>
              <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </div>
          ))}
        </Static>

        <Static as="section" className="bg-gradient-to-r from-pink-500 to-violet-600 px-4 py-14 text-center text-white">
          <h2 className="text-3xl font-bold">Ready to create better content?</h2>
          <p className="mx-auto mt-3 max-w-xl text-white/90">
            Start free with 6 downloads, upgrade to Pro for unlimited downloads and every tool.
          </p>
          <a
            href="/api/login"
            className="mt-6 inline-flex rounded-lg bg-white px-6 py-3 font-semibold text-violet-700 shadow hover:bg-slate-100"
          >
            Start Creating Now
          </a>
        </Static>
      </main>
      <SiteFooter className="mx-auto max-w-6xl" />
    </>
  );
}
