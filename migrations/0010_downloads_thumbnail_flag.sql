ALTER TABLE "downloads" ADD COLUMN "has_thumbnail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- "thumbnail" held a route path (/api/video/thumbnail/<video id>[?platform=]); the link is now made from
-- platform and video_id when it is answered (routes/video.links.ts, issue 35). 0011 drops the old column.
UPDATE "downloads" SET "has_thumbnail" = true WHERE "thumbnail" IS NOT NULL AND "video_id" IS NOT NULL;
