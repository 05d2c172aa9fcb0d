// Owns: the declarations of the text (replan_text.cpp) and JSON (replan_json.cpp) of what `etmem
// replan` wrote (api::ReplannedFile, a value of the public
// header include/etmem/etmem.h: each method's buffers before and after with the planner that won,
// the file written, its size and the planned memory saved).
// Not: re-planning, rewriting or the read-back check (plan/, api::Replan, api::WriteReplanned);
// this file only prints them.
#pragma once

#include <string>

#include "etmem/etmem.h"

namespace etmem::report {

// "method 'forward', buffer 1: 33168 -> 24576 bytes (greedy-by-size)" per buffer, then
// "wrote PATH (N bytes): plan sound, S bytes of planned memory saved".
std::string ReplanText(const api::ReplannedFile& written);
// One JSON object {output, bytes, saved, buffers: [{method, memory_id, before, after,
// planner}]}, with a final newline.
std::string ReplanJson(const api::ReplannedFile& written);

}  // namespace etmem::report
