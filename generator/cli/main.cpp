#include "cli/commands.h"

int main(int argc, char** argv) { return pp::run_cli(argc, argv); }
