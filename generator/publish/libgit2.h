// libgit2, loaded when the program first opens a repository. Only publish,
// sync and the nightly run's commit use git; build, check and serve never
// do, yet linking libgit2 mapped it and the libraries it brings (SSH, TLS,
// Kerberos, ...) into every start (docs/performance.md). Like libcurl
// (fetch/curl_library.h), it is opened by soname, its functions listed once
// (util/shared_library.h's idiom): here the soname of the header the program
// was compiled with (LIBGIT2_SOVERSION), whose declarations type them.
//
// Code in namespace pp calls libgit2 as its documentation does:
// `git_repository_open(&repo, path)` names a function object declared
// below, which hides the global declaration (and, being an object, keeps
// argument-dependent lookup from finding it). libgit2 is not linked, so a
// call that goes around these objects does not link.
#pragma once

#include "util/error.h"
#include "util/shared_library.h"

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include <utility>

// Every libgit2 function paperpress calls.
// clang-format off
#define PP_LIBGIT2_FUNCTIONS(X) \
    X(git_, blob_create_from_buffer) \
    X(git_, branch_is_checked_out) \
    X(git_, checkout_options_init) \
    X(git_, checkout_tree) \
    X(git_, commit_create) \
    X(git_, commit_free) \
    X(git_, commit_lookup) \
    X(git_, commit_message) \
    X(git_, commit_parent_id) \
    X(git_, commit_parentcount) \
    X(git_, commit_tree) \
    X(git_, credential_ssh_key_from_agent) \
    X(git_, credential_username_new) \
    X(git_, credential_userpass_plaintext_new) \
    X(git_, diff_free) \
    X(git_, diff_get_delta) \
    X(git_, diff_num_deltas) \
    X(git_, diff_tree_to_tree) \
    X(git_, error_last) \
    X(git_, fetch_options_init) \
    X(git_, graph_descendant_of) \
    X(git_, index_add) \
    X(git_, index_add_bypath) \
    X(git_, index_free) \
    X(git_, index_new) \
    X(git_, index_read) \
    X(git_, index_remove_bypath) \
    X(git_, index_write) \
    X(git_, index_write_tree_to) \
    X(git_, libgit2_init) \
    X(git_, libgit2_opts) \
    X(git_, libgit2_shutdown) \
    X(git_, merge_base) \
    X(git_, object_free) \
    X(git_, object_lookup_prefix) \
    X(git_, object_id) \
    X(git_, odb_add_backend) \
    X(git_, odb_backend_data_alloc) \
    X(git_, odb_exists) \
    X(git_, odb_free) \
    X(git_, odb_init_backend) \
    X(git_, oid_cmp) \
    X(git_, oid_equal) \
    X(git_, oid_fromstrn) \
    X(git_, oid_is_zero) \
    X(git_, oid_tostr) \
    X(git_, push_options_init) \
    X(git_, reference_create) \
    X(git_, reference_create_matching) \
    X(git_, reference_free) \
    X(git_, reference_lookup) \
    X(git_, reference_name_is_valid) \
    X(git_, reference_symbolic_target) \
    X(git_, reference_type) \
    X(git_, remote_fetch) \
    X(git_, remote_free) \
    X(git_, remote_lookup) \
    X(git_, remote_push) \
    X(git_, remote_pushurl) \
    X(git_, remote_url) \
    X(git_, repository_free) \
    X(git_, repository_index) \
    X(git_, repository_is_shallow) \
    X(git_, repository_odb) \
    X(git_, repository_open_ext) \
    X(git_, repository_path) \
    X(git_, repository_workdir) \
    X(git_, revparse_single) \
    X(git_, signature_free) \
    X(git_, signature_now) \
    X(git_, tree_create_updated) \
    X(git_, tree_entry_bypath) \
    X(git_, tree_entry_filemode) \
    X(git_, tree_entry_free) \
    X(git_, tree_entry_id) \
    X(git_, tree_entry_name) \
    X(git_, tree_entry_type) \
    X(git_, tree_free) \
    X(git_, tree_id) \
    X(git_, tree_lookup) \
    X(git_, tree_walk) \
    X(git_, treebuilder_free) \
    X(git_, treebuilder_new) \
    X(git_, treebuilder_write)
// clang-format on

namespace pp {

namespace libgit2 {

// git_commit_create is commit_create.
struct Functions {
    PP_SHARED_LIBRARY_FUNCTIONS(PP_LIBGIT2_FUNCTIONS)
};

// Loads and initialises libgit2, once for the process; when it cannot, the
// same error on every call, saying what is missing.
Result<void> load();

// The loaded functions, loading them if need be. For callers that checked
// load() first: when libgit2 cannot be loaded, the program stops here.
const Functions& functions();

template <auto Function>
struct Call {
    template <class... Args>
    decltype(auto) operator()(Args&&... args) const {
        return (functions().*Function)(std::forward<Args>(args)...);
    }
};

} // namespace libgit2

#define PP_LIBGIT2_CALL(prefix, name) inline constexpr libgit2::Call<&libgit2::Functions::name> prefix##name{};
PP_LIBGIT2_FUNCTIONS(PP_LIBGIT2_CALL)
#undef PP_LIBGIT2_CALL

} // namespace pp
