CREATE TABLE "batch_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" varchar(36) NOT NULL,
	"position" integer NOT NULL,
	"url" varchar(2048) NOT NULL,
	"status" varchar(20) NOT NULL,
	"title" text,
	"file_name" varchar(255),
	"result_key" varchar(255),
	"error_code" varchar(80),
	"error_message" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" varchar(36) PRIMARY KEY NOT NULL,
	"user_id" varchar(36) NOT NULL,
	"quality" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_items_batch_idx" ON "batch_items" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "batch_items_queue_idx" ON "batch_items" USING btree ("status","queued_at");--> statement-breakpoint
CREATE INDEX "batches_user_idx" ON "batches" USING btree ("user_id","created_at");