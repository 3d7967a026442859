CREATE TABLE "caption_projects" (
	"id" varchar(36) PRIMARY KEY NOT NULL,
	"user_id" varchar(36) NOT NULL,
	"source" jsonb NOT NULL,
	"title" varchar(200) NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"language" varchar(16) NOT NULL,
	"engine" varchar(16) NOT NULL,
	"lines" jsonb NOT NULL,
	"style" jsonb NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"media_key" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studio_uploads" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" varchar(36) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"size" bigint NOT NULL,
	"status" varchar(20) NOT NULL,
	"result_key" varchar(255),
	"meta" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "caption_projects" ADD CONSTRAINT "caption_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_uploads" ADD CONSTRAINT "studio_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caption_projects_user_idx" ON "caption_projects" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "studio_uploads_user_idx" ON "studio_uploads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "studio_uploads_expiry_idx" ON "studio_uploads" USING btree ("expires_at");