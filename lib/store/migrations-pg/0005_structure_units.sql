CREATE TABLE "units" (
	"id" text PRIMARY KEY NOT NULL,
	"manual_id" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"page" integer NOT NULL,
	"page_end" integer NOT NULL,
	"heading" text DEFAULT '' NOT NULL,
	"text" text NOT NULL,
	"ocr" boolean DEFAULT false NOT NULL,
	"regions" jsonb NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_manual_id_manuals_id_fk" FOREIGN KEY ("manual_id") REFERENCES "public"."manuals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "units_manual_page_idx" ON "units" USING btree ("manual_id","page");