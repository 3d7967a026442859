DROP TABLE "tiktok_auth" CASCADE;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "platform" varchar(32) DEFAULT 'tiktok' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_results" ADD COLUMN "platform" varchar(32) DEFAULT 'tiktok' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_observations" ADD COLUMN "platform" varchar(32) DEFAULT 'tiktok' NOT NULL;