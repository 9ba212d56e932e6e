// libgit2, loaded when the program first opens a repository. Only publish,
// sync and the nightly run's commit use git; build, check and serve never
// do, yet linking libgit2 mapped it and the libraries it brings (SSH, TLS,
// Kerberos, ...) into every start (docs/performance.md). Like libcurl
// (fetch/curl_library.h), it is opened by soname: here the one of the header
// the program was compiled with (LIBGIT2_SOVERSION), whose declarations type
// the functions.
//
// Code in namespace pp calls libgit2 as its documentation does:
// `git_repository_open(&repo, path)` names a function object declared
// below, which hides the global declaration (and, being an object, keeps
// argument-dependent lookup from finding it). libgit2 is not linked, so a
// call that goes around these objects does not link.
#pragma once

#include "util/error.h"

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include <utility>

// Every libgit2 function paperpress calls.
#define PP_LIBGIT2_FUNCTIONS(X) \
    X(git_blob_create_from_buffer) X(git_branch_is_checked_out) X(git_checkout_options_init) \
    X(git_checkout_tree) X(git_commit_create) X(git_commit_free) X(git_commit_lookup) X(git_commit_message) \
    X(git_commit_parent_id) X(git_commit_parentcount) X(git_commit_tree) X(git_credential_ssh_key_from_agent) \
    X(git_credential_username_new) X(git_credential_userpass_plaintext_new) X(git_diff_free) \
    X(git_diff_get_delta) X(git_diff_num_deltas) X(git_diff_tree_to_tree) X(git_error_last) \
    X(git_fetch_options_init) X(git_graph_descendant_of) X(git_index_add) X(git_index_add_bypath) \
    X(git_index_free) X(git_index_new) X(git_index_read) X(git_index_remove_bypath) X(git_index_write) \
    X(git_index_write_tree_to) X(git_libgit2_init) X(git_libgit2_opts) X(git_libgit2_shutdown) X(git_merge_base) \
    X(git_object_free) X(git_object_id) X(git_odb_add_backend) X(git_odb_backend_data_alloc) X(git_odb_exists) \
    X(git_odb_free) X(git_odb_init_backend) X(git_oid_cmp) X(git_oid_equal) X(git_oid_fromstrn) \
    X(git_oid_is_zero) X(git_oid_tostr) X(git_push_options_init) X(git_reference_create) \
    X(git_reference_create_matching) X(git_reference_free) X(git_reference_lookup) \
    X(git_reference_name_is_valid) X(git_reference_symbolic_target) X(git_reference_type) X(git_remote_fetch) \
    X(git_remote_free) X(git_remote_lookup) X(git_remote_push) X(git_remote_pushurl) X(git_remote_url) \
    X(git_repository_free) X(git_repository_index) X(git_repository_is_shallow) X(git_repository_odb) \
    X(git_repository_open_ext) X(git_repository_path) X(git_repository_workdir) X(git_revparse_single) \
    X(git_signature_free) X(git_signature_now) X(git_tree_create_updated) X(git_tree_entry_bypath) \
    X(git_tree_entry_filemode) X(git_tree_entry_free) X(git_tree_entry_id) X(git_tree_entry_name) \
    X(git_tree_entry_type) X(git_tree_free) X(git_tree_id) X(git_tree_lookup) X(git_tree_walk) \
    X(git_treebuilder_free) X(git_treebuilder_new) X(git_treebuilder_write)

namespace pp {

namespace libgit2 {

struct Functions {
#define PP_LIBGIT2_POINTER(name) decltype(&::name) name = nullptr;
    PP_LIBGIT2_FUNCTIONS(PP_LIBGIT2_POINTER)
#undef PP_LIBGIT2_POINTER
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

#define PP_LIBGIT2_CALL(name) inline constexpr libgit2::Call<&libgit2::Functions::name> name{};
PP_LIBGIT2_FUNCTIONS(PP_LIBGIT2_CALL)
#undef PP_LIBGIT2_CALL

} // namespace pp
