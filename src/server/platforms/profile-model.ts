// The neutral model of a whole profile and of a post's replies (issue 45): what the optional
// Platform methods `listProfile` and `listReplies` answer, and what services, routes and the
// client see. Platform-specific fields stay in the platform's folder.

/** A recognised profile link: the account as the link names it (a handle or an id) and the link. */
export interface ProfileRef {
  platform: string;
  actor: string;
  url: string;
}

/** One post of a profile that carries media. */
export interface ListedPost {
  id: string; // the platform's video id (as in VideoRef)
  url: string; // its canonical link: what a download or a batch item takes
  text: string;
  createdAt: string | null; // ISO time
  kind: 'video' | 'images';
  thumbnailUrl: string | null; // on the platform (shown through the image relay)
  /** True when the profile's owner reposted someone else's post. */
  repost: boolean;
}

/** One page of a profile's posts with media, newest first; `cursor` asks for the next (null: the end). */
export interface ProfilePage {
  author: { handle: string; name: string | null; avatarUrl: string | null };
  posts: ListedPost[];
  cursor: string | null;
}

/** One reply of a post's thread; a reply the platform withholds is a row that says why. */
export interface ReplyRow {
  state: 'ok' | 'blocked' | 'not_found';
  authorHandle: string | null;
  authorId: string | null; // the platform's own account id
  authorName: string | null;
  text: string;
  createdAt: string | null;
  likes: number;
  reposts: number;
  quotes: number;
  /** The link of the post it answers (the exported post itself at depth 1). */
  parentUrl: string | null;
  depth: number; // 1: a direct reply
  url: string | null;
}
