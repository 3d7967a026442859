CREATE TABLE "schedule_runs" (
	"name" varchar(100) PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"runs" integer DEFAULT 0 NOT NULL
);
