ALTER TABLE "downloads" ALTER COLUMN "video_id" SET DATA TYPE varchar(128);--> statement-breakpoint
ALTER TABLE "media_results" ALTER COLUMN "video_id" SET DATA TYPE varchar(128);--> statement-breakpoint
ALTER TABLE "video_observations" ALTER COLUMN "video_id" SET DATA TYPE varchar(128);