// Whole profiles and replies, the pure parts (issue 45): the client's profile-link pattern accepts
// exactly what the server's parseProfileLink accepts; the CSV a spreadsheet opens safely; a thread
// flattened depth first with parents, depths and withheld replies, even when hostilely deep.
import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../src/server/adapters/http/index';
import { csvCell, toCsv } from '../../src/server/lib/csv';
import { createBlueskyPlatform } from '../../src/server/platforms/bluesky/index';
import { flattenReplies } from '../../src/server/platforms/bluesky/replies';
import { profileOfLink } from '../../src/shared/platform-links';

const bluesky = createBlueskyPlatform({ http: {} as HttpClient });
const info = {
  id: 'bluesky',
  name: 'Bluesky',
  example: '',
  linkPattern: bluesky.linkPattern.source,
  profilePattern: bluesky.profilePattern?.source,
  separateSound: false,
};

describe('Bluesky profiles and replies', () => {
  it('recognises profile links on the client exactly as the server does', () => {
    const corpus = [
      'https://bsky.app/profile/jay.bsky.team',
      'https://bsky.app/profile/jay.bsky.team/',
      'https://www.bsky.app/profile/Jay.Bsky.Team?tab=media',
      'https://bsky.app/profile/did:plc:l7mosai5i2u562b5qbosw6c7',
      'https://bsky.app/profile/did%3Aplc%3Al7mosai5i2u562b5qbosw6c7',
      'https://bsky.app/profile/did:web:creator.example.com',
      'https://bsky.app/profile/did:plc:short',
      'https://bsky.app/profile/nodot',
      'https://bsky.app/profile/jay.bsky.team/post/3lhnr2o6kb22h',
      'https://bsky.app/profile/jay.bsky.team/lists',
      'https://evil.example/profile/jay.bsky.team',
    ];
    for (const link of corpus)
      expect(profileOfLink(link, [info]) !== null, link).toBe(bluesky.parseProfileLink?.(link) != null);
    expect(bluesky.parseProfileLink?.('https://bsky.app/profile/Jay.Bsky.Team')).toEqual({
      platform: 'bluesky',
      actor: 'jay.bsky.team',
      url: 'https://bsky.app/profile/jay.bsky.team',
    });
    // A post link is still a post, never a profile.
    expect(bluesky.parseLink('https://bsky.app/profile/jay.bsky.team')).toBeNull();
  });

  it('writes a CSV with a BOM, every field quoted, and formulas neutralised', () => {
    for (const [value, cell] of [
      ['=1+1', `"'=1+1"`],
      ['+1', `"'+1"`],
      ['-2', `"'-2"`],
      ['@SUM(A1)', `"'@SUM(A1)"`],
      ['\t=cmd', `"'\t=cmd"`],
      ['say "hi"', '"say ""hi"""'],
      ['a, b\nc', '"a, b\nc"'],
    ] as const)
      expect(csvCell(value)).toBe(cell);
    expect(csvCell(-3)).toBe('"-3"'); // a number of ours is a number
    expect(csvCell(null)).toBe('""');
    expect(toCsv([{ title: 'n', value: (r: number) => r }], [1, 2])).toBe('\uFEFF"n"\r\n"1"\r\n"2"\r\n');
  });

  it('flattens a thread depth first, with parents, depths and withheld replies', () => {
    const did = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa';
    const uri = (rkey: string) => `at://${did}/app.bsky.feed.post/${rkey}`;
    const post = (rkey: string, replies: unknown[] = []) => ({
      post: { uri: uri(rkey), author: { did, handle: 'a.bsky.social' }, record: { text: rkey }, likeCount: 2 },
      replies,
    });
    const rows = flattenReplies(
      {
        replies: [
          post('3aaaaaaaaaaa2', [post('3aaaaaaaaaaa3')]),
          { $type: 'app.bsky.feed.defs#blockedPost', uri: uri('3aaaaaaaaaaa4'), blocked: true, author: { did } },
          post('3aaaaaaaaaaa5'),
        ],
      },
      'https://bsky.app/root',
    );
    expect(rows.map((r) => [r.state, r.text, r.depth, r.parentUrl?.slice(-13) ?? null])).toEqual([
      ['ok', '3aaaaaaaaaaa2', 1, 'bsky.app/root'],
      ['ok', '3aaaaaaaaaaa3', 2, '3aaaaaaaaaaa2'],
      ['blocked', '', 1, 'bsky.app/root'],
      ['ok', '3aaaaaaaaaaa5', 1, 'bsky.app/root'],
    ]);
    // A chain deeper than any stack: flattened without recursion, bounded.
    let deep: Record<string, unknown> = post('3aaaaaaaaaaa6');
    for (let i = 0; i < 50_000; i++) deep = post('3aaaaaaaaaaa7', [deep]);
    const many = flattenReplies({ replies: [deep] }, 'https://bsky.app/root');
    expect(many.length).toBe(1000);
    expect(many.at(-1)?.depth).toBe(1000);
  });
});
