ALTER TABLE "subscriptions" ADD COLUMN "approval_url" varchar(2000);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "status_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "failed_payments" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id");