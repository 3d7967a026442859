ALTER TABLE "blog_posts" ADD COLUMN "content_html" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "html_version" varchar(40);