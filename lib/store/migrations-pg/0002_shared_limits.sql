CREATE TABLE "in_flight" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"bucket" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limits_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE INDEX "in_flight_bucket_idx" ON "in_flight" USING btree ("bucket");