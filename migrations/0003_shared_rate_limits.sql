CREATE TABLE "rate_limit_windows" (
	"key" varchar(400) NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"reset_at" bigint NOT NULL,
	CONSTRAINT "rate_limit_windows_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_reset" ON "rate_limit_windows" USING btree ("reset_at");